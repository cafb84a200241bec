/**
 * The curated industries: a 2017 NAICS code and description, the matching SIC code, Google and
 * LinkedIn categories, and what shapes a company of that industry (its kind, its usual size, the words
 * in its name and on its website). One row per industry keeps naics ↔ google ↔ linkedin consistent.
 */
import { words } from './names.js';

export type IndustryKind =
  | 'tech'
  | 'services'
  | 'health'
  | 'finance'
  | 'industrial'
  | 'construction'
  | 'logistics'
  | 'retail'
  | 'hospitality'
  | 'education'
  | 'energy'
  | 'media'
  | 'nonprofit';

export interface Industry {
  naics: number;
  naicsDescription: string;
  sic: string;
  sicDescription: string;
  google: readonly string[];
  linkedin: string;
  kind: IndustryKind;
  /** Relative frequency among companies. */
  weight: number;
  /** Shifts the size distribution: 0 mostly small firms, 1 typical, 2 mostly large. */
  scale: 0 | 1 | 2;
  nameWords: readonly string[];
  keywords: readonly string[];
}

type Row = [number, string, string, string, string, string, IndustryKind, number, 0 | 1 | 2, string, string];

// prettier-ignore
const ROWS: Row[] = [
  [511210, 'Software Publishers', '7372', 'Prepackaged Software', 'Software company', 'computer software', 'tech', 9, 1, 'Software,Labs,Systems,Technologies,Cloud,AI', 'saas platform,workflow automation,api integrations,enterprise software,free trial,data security'],
  [541511, 'Custom Computer Programming Services', '7371', 'Computer Programming Services', 'Software company', 'information technology and services', 'tech', 6, 1, 'Digital,Dev,Code,Software,Solutions', 'custom software development,web development,mobile apps,agile teams,nearshore development'],
  [541512, 'Computer Systems Design Services', '7373', 'Computer Integrated Systems Design', 'Computer consultant', 'information technology and services', 'tech', 5, 1, 'Systems,IT Solutions,Technologies,Consulting', 'managed it services,cloud migration,systems integration,it consulting,network design'],
  [518210, 'Data Processing, Hosting, and Related Services', '7374', 'Computer Processing and Data Preparation', 'Internet hosting service', 'internet', 'tech', 3, 1, 'Data,Cloud,Hosting,Networks', 'cloud hosting,data center,managed kubernetes,uptime sla,colocation'],
  [519130, 'Internet Publishing and Broadcasting and Web Search Portals', '7375', 'Information Retrieval Services', 'Internet company', 'internet', 'tech', 2, 1, 'Media,Digital,Online,Web', 'online platform,digital publishing,content marketplace,user community'],
  [541519, 'Other Computer Related Services', '7379', 'Computer Related Services, NEC', 'Computer security service', 'computer & network security', 'tech', 3, 1, 'Security,Cyber,Defense,Shield', 'cybersecurity,penetration testing,managed detection and response,zero trust,soc 2 compliance'],
  [334413, 'Semiconductor and Related Device Manufacturing', '3674', 'Semiconductors and Related Devices', 'Electronics manufacturer', 'semiconductors', 'tech', 1, 2, 'Semiconductor,Micro,Silicon,Devices', 'semiconductor design,asic,chip manufacturing,wafer fabrication'],
  [334111, 'Electronic Computer Manufacturing', '3571', 'Electronic Computers', 'Computer hardware manufacturer', 'computer hardware', 'tech', 1, 2, 'Computing,Hardware,Devices,Systems', 'high performance computing,servers,edge devices,hardware design'],
  [517312, 'Wireless Telecommunications Carriers (except Satellite)', '4812', 'Radiotelephone Communications', 'Telecommunications service provider', 'telecommunications', 'tech', 1, 2, 'Telecom,Mobile,Wireless,Networks', '5g network,mobile plans,fiber broadband,iot connectivity'],
  [541611, 'Administrative Management and General Management Consulting Services', '8742', 'Management Consulting Services', 'Business management consultant', 'management consulting', 'services', 6, 1, 'Consulting,Partners,Advisors,Strategy', 'management consulting,digital transformation,operating model,change management'],
  [541613, 'Marketing Consulting Services', '8742', 'Management Consulting Services', 'Marketing consultant', 'marketing and advertising', 'services', 4, 0, 'Marketing,Growth,Digital,Brands', 'demand generation,seo,content marketing,marketing strategy,brand positioning'],
  [541810, 'Advertising Agencies', '7311', 'Advertising Agencies', 'Advertising agency', 'marketing and advertising', 'media', 3, 1, 'Creative,Agency,Media,Studio', 'advertising campaigns,creative agency,media buying,brand strategy'],
  [541430, 'Graphic Design Services', '7336', 'Commercial Art and Graphic Design', 'Graphic designer', 'design', 'media', 2, 0, 'Design,Studio,Creative,Works', 'branding,graphic design,packaging design,visual identity'],
  [541110, 'Offices of Lawyers', '8111', 'Legal Services', 'Law firm', 'law practice', 'services', 5, 0, 'Law,Legal,Partners,Attorneys', 'corporate law,litigation,intellectual property,employment law,free consultation'],
  [541211, 'Offices of Certified Public Accountants', '8721', 'Accounting, Auditing, and Bookkeeping Services', 'Accountant', 'accounting', 'finance', 4, 0, 'Accounting,CPAs,Tax,Advisors', 'tax preparation,audit and assurance,bookkeeping,cfo services'],
  [541330, 'Engineering Services', '8711', 'Engineering Services', 'Engineering consultant', 'mechanical or industrial engineering', 'industrial', 3, 1, 'Engineering,Design,Technik,Associates', 'structural engineering,mechanical design,engineering services,project delivery'],
  [541310, 'Architectural Services', '8712', 'Architectural Services', 'Architect', 'architecture & planning', 'services', 2, 0, 'Architects,Design,Studio,Architecture', 'architecture,interior design,urban planning,sustainable buildings'],
  [541715, 'Research and Development in the Physical, Engineering, and Life Sciences (except Nanotechnology and Biotechnology)', '8731', 'Commercial Physical and Biological Research', 'Research institute', 'research', 'tech', 1, 1, 'Research,Labs,Sciences,Innovations', 'contract research,applied science,prototyping,r&d services'],
  [541714, 'Research and Development in Biotechnology (except Nanobiotechnology)', '8731', 'Commercial Physical and Biological Research', 'Biotechnology company', 'biotechnology', 'health', 2, 1, 'Bio,Therapeutics,Biosciences,Genomics', 'drug discovery,clinical trials,gene therapy,biologics,pipeline'],
  [325412, 'Pharmaceutical Preparation Manufacturing', '2834', 'Pharmaceutical Preparations', 'Pharmaceutical company', 'pharmaceuticals', 'health', 1, 2, 'Pharma,Pharmaceuticals,Health,Therapeutics', 'pharmaceutical manufacturing,generic drugs,regulatory affairs,gmp'],
  [339112, 'Surgical and Medical Instrument Manufacturing', '3841', 'Surgical and Medical Instruments and Apparatus', 'Medical equipment manufacturer', 'medical devices', 'health', 2, 1, 'Medical,Devices,Surgical,MedTech', 'medical devices,fda cleared,surgical instruments,patient monitoring'],
  [621111, 'Offices of Physicians (except Mental Health Specialists)', '8011', 'Offices and Clinics of Doctors of Medicine', 'Medical clinic', 'medical practice', 'health', 5, 0, 'Medical Group,Health,Clinic,Care', 'primary care,book an appointment,telehealth,accepting new patients'],
  [621210, 'Offices of Dentists', '8021', 'Offices and Clinics of Dentists', 'Dentist', 'medical practice', 'health', 3, 0, 'Dental,Smiles,Dentistry,Dental Care', 'family dentistry,teeth whitening,invisalign,emergency dental care'],
  [622110, 'General Medical and Surgical Hospitals', '8062', 'General Medical and Surgical Hospitals', 'Hospital', 'hospital & health care', 'health', 1, 2, 'Health,Medical Center,Hospital,Health System', 'emergency care,patient portal,specialty care,careers in nursing'],
  [623110, 'Nursing Care Facilities (Skilled Nursing Facilities)', '8051', 'Skilled Nursing Care Facilities', 'Nursing home', 'hospital & health care', 'health', 2, 1, 'Senior Living,Care,Healthcare,Rehab', 'skilled nursing,assisted living,memory care,rehabilitation'],
  [524126, 'Direct Property and Casualty Insurance Carriers', '6331', 'Fire, Marine, and Casualty Insurance', 'Insurance company', 'insurance', 'finance', 1, 2, 'Insurance,Assurance,Mutual,Underwriters', 'commercial insurance,get a quote,claims,property and casualty'],
  [524210, 'Insurance Agencies and Brokerages', '6411', 'Insurance Agents, Brokers, and Service', 'Insurance agency', 'insurance', 'finance', 4, 0, 'Insurance,Insurance Agency,Brokers,Risk', 'insurance broker,employee benefits,business insurance,risk management'],
  [522110, 'Commercial Banking', '6021', 'National Commercial Banks', 'Bank', 'banking', 'finance', 1, 2, 'Bank,Bancorp,Financial,Trust', 'business banking,mortgages,online banking,treasury management'],
  [523930, 'Investment Advice', '6282', 'Investment Advice', 'Financial consultant', 'financial services', 'finance', 4, 0, 'Wealth,Capital,Advisors,Financial', 'wealth management,financial planning,retirement planning,fiduciary'],
  [523920, 'Portfolio Management', '6799', 'Investors, NEC', 'Investment company', 'investment management', 'finance', 2, 1, 'Capital,Partners,Ventures,Asset Management', 'private equity,portfolio companies,venture capital,assets under management'],
  [522320, 'Financial Transactions Processing, Reserve, and Clearinghouse Activities', '6099', 'Functions Related to Depository Banking, NEC', 'Financial institution', 'financial services', 'finance', 2, 1, 'Pay,Payments,Fintech,Financial', 'payment processing,embedded finance,fraud prevention,merchant services'],
  [531210, 'Offices of Real Estate Agents and Brokers', '6531', 'Real Estate Agents and Managers', 'Real estate agency', 'real estate', 'services', 5, 0, 'Realty,Properties,Real Estate,Homes', 'homes for sale,property management,real estate agents,market report'],
  [531120, 'Lessors of Nonresidential Buildings (except Miniwarehouses)', '6512', 'Operators of Nonresidential Buildings', 'Commercial real estate agency', 'commercial real estate', 'services', 2, 1, 'Properties,Realty,Estates,Holdings', 'office space,commercial leasing,industrial properties,tenant services'],
  [236220, 'Commercial and Institutional Building Construction', '1542', 'General Contractors-Nonresidential Buildings, Other than Industrial Buildings and Warehouses', 'General contractor', 'construction', 'construction', 4, 1, 'Construction,Builders,Contracting,Bau', 'general contractor,design-build,construction management,preconstruction'],
  [236115, 'New Single-Family Housing Construction (except For-Sale Builders)', '1521', 'General Contractors-Single-Family Houses', 'Home builder', 'construction', 'construction', 3, 0, 'Homes,Builders,Construction,Custom Homes', 'custom homes,home builder,renovations,floor plans'],
  [238220, 'Plumbing, Heating, and Air-Conditioning Contractors', '1711', 'Plumbing, Heating and Air-Conditioning', 'HVAC contractor', 'construction', 'construction', 4, 0, 'Plumbing,Heating & Air,Mechanical,HVAC', 'hvac repair,plumbing services,24/7 emergency service,heat pumps'],
  [238210, 'Electrical Contractors and Other Wiring Installation Contractors', '1731', 'Electrical Work', 'Electrician', 'construction', 'construction', 3, 0, 'Electric,Electrical,Power,Wiring', 'electrical contractor,ev charger installation,commercial wiring,lighting'],
  [484121, 'General Freight Trucking, Long-Distance, Truckload', '4213', 'Trucking, Except Local', 'Trucking company', 'transportation/trucking/railroad', 'logistics', 3, 1, 'Trucking,Transport,Freight,Express', 'truckload,ltl shipping,owner operators,driver jobs'],
  [488510, 'Freight Transportation Arrangement', '4731', 'Arrangement of Transportation of Freight and Cargo', 'Freight forwarding service', 'logistics and supply chain', 'logistics', 3, 1, 'Logistics,Freight,Forwarding,Logistik', 'freight forwarding,customs brokerage,supply chain visibility,ocean freight'],
  [493110, 'General Warehousing and Storage', '4225', 'General Warehousing and Storage', 'Warehouse', 'warehousing', 'logistics', 2, 1, 'Warehousing,Distribution,Fulfillment,Storage', '3pl,order fulfillment,warehousing,distribution centers'],
  [481111, 'Scheduled Passenger Air Transportation', '4512', 'Air Transportation, Scheduled', 'Airline', 'airlines/aviation', 'logistics', 0.3, 2, 'Airlines,Air,Airways,Aviation', 'book flights,loyalty program,fleet,destinations'],
  [336111, 'Automobile Manufacturing', '3711', 'Motor Vehicles and Passenger Car Bodies', 'Car manufacturer', 'automotive', 'industrial', 0.4, 2, 'Motors,Automotive,Mobility,Vehicles', 'electric vehicles,vehicle platform,dealer network,autonomous driving'],
  [336411, 'Aircraft Manufacturing', '3721', 'Aircraft', 'Aircraft manufacturer', 'aviation & aerospace', 'industrial', 0.4, 2, 'Aerospace,Aviation,Aero,Dynamics', 'aircraft design,aerospace engineering,mro,certification'],
  [333249, 'Other Industrial Machinery Manufacturing', '3559', 'Special Industry Machinery, NEC', 'Machine manufacturer', 'machinery', 'industrial', 3, 1, 'Machinery,Industries,Maschinenbau,Equipment', 'industrial machinery,automation systems,spare parts,custom machines'],
  [332710, 'Machine Shops', '3599', 'Industrial and Commercial Machinery and Equipment, NEC', 'Machine shop', 'mechanical or industrial engineering', 'industrial', 3, 0, 'Precision,Machining,Manufacturing,Fabrication', 'cnc machining,precision parts,iso 9001,rapid prototyping'],
  [325211, 'Plastics Material and Resin Manufacturing', '2821', 'Plastics Materials, Synthetic Resins, and Nonvulcanizable Elastomers', 'Plastic fabrication company', 'plastics', 'industrial', 1, 1, 'Polymers,Plastics,Materials,Chemicals', 'polymers,injection molding,resins,sustainable materials'],
  [311812, 'Commercial Bakeries', '2051', 'Bread and Other Bakery Products, Except Cookies and Crackers', 'Bakery', 'food production', 'retail', 2, 0, 'Bakery,Bakehouse,Breads,Foods', 'artisan bread,wholesale bakery,pastries,catering orders'],
  [312120, 'Breweries', '2082', 'Malt Beverages', 'Brewery', 'wine and spirits', 'hospitality', 2, 0, 'Brewing,Brewery,Beer Co.,Ales', 'craft beer,taproom,brewery tours,seasonal releases'],
  [722511, 'Full-Service Restaurants', '5812', 'Eating Places', 'Restaurant', 'restaurants', 'hospitality', 5, 0, 'Kitchen,Bistro,Grill,Restaurant Group', 'reservations,private dining,seasonal menu,happy hour'],
  [722513, 'Limited-Service Restaurants', '5812', 'Eating Places', 'Fast food restaurant', 'restaurants', 'hospitality', 3, 1, 'Burgers,Foods,Eats,Kitchen', 'order online,franchise opportunities,delivery,locations near you'],
  [721110, 'Hotels (except Casino Hotels) and Motels', '7011', 'Hotels and Motels', 'Hotel', 'hospitality', 'hospitality', 2, 1, 'Hotels,Hospitality,Resorts,Inns', 'book your stay,boutique hotel,meeting spaces,rooms and suites'],
  [445110, 'Supermarkets and Other Grocery (except Convenience) Stores', '5411', 'Grocery Stores', 'Grocery store', 'supermarkets', 'retail', 1, 2, 'Market,Foods,Grocers,Fresh', 'weekly ad,grocery delivery,fresh produce,store locator'],
  [448140, 'Family Clothing Stores', '5651', 'Family Clothing Stores', 'Clothing store', 'apparel & fashion', 'retail', 2, 1, 'Apparel,Clothing,Fashion,Outfitters', 'new arrivals,free shipping,sustainable fashion,size guide'],
  [454110, 'Electronic Shopping and Mail-Order Houses', '5961', 'Catalog and Mail-Order Houses', 'Online retailer', 'retail', 'retail', 3, 1, 'Shop,Store,Goods,Direct', 'shop online,free returns,subscription box,customer reviews'],
  [423430, 'Computer and Computer Peripheral Equipment and Software Merchant Wholesalers', '5045', 'Computers and Computer Peripheral Equipment and Software', 'Computer wholesaler', 'wholesale', 'retail', 2, 1, 'Distribution,Supply,Technologies,Wholesale', 'it distribution,reseller program,hardware procurement,licensing'],
  [424210, "Drugs and Druggists' Sundries Merchant Wholesalers", '5122', 'Drugs, Drug Proprietaries, and Druggists\' Sundries', 'Pharmaceutical products wholesaler', 'wholesale', 'health', 1, 1, 'Pharma Supply,Distribution,Health,Medical Supply', 'pharmaceutical distribution,cold chain,pharmacy services'],
  [441110, 'New Car Dealers', '5511', 'Motor Vehicle Dealers (New and Used)', 'Car dealer', 'automotive', 'retail', 3, 1, 'Motors,Auto Group,Automotive,Cars', 'new inventory,certified pre-owned,service center,financing'],
  [611310, 'Colleges, Universities, and Professional Schools', '8221', 'Colleges, Universities, and Professional Schools', 'University', 'higher education', 'education', 1, 2, 'College,Institute,Academy,University', 'degree programs,admissions,online learning,research centers'],
  [611430, 'Professional and Management Development Training', '8299', 'Schools and Educational Services, NEC', 'Training center', 'professional training & coaching', 'education', 3, 0, 'Academy,Learning,Training,Leadership', 'leadership training,corporate workshops,certification courses,coaching'],
  [611110, 'Elementary and Secondary Schools', '8211', 'Elementary and Secondary Schools', 'School', 'education management', 'education', 2, 1, 'Academy,School,Preparatory,Learning', 'admissions,curriculum,stem programs,after school'],
  [561311, 'Employment Placement Agencies', '7361', 'Employment Agencies', 'Employment agency', 'staffing and recruiting', 'services', 4, 1, 'Staffing,Talent,Recruiting,Search', 'staffing solutions,executive search,job openings,contract recruiting'],
  [561612, 'Security Guards and Patrol Services', '7381', 'Detective, Guard, and Armored Car Services', 'Security guard service', 'security and investigations', 'services', 2, 1, 'Security,Protection,Guard,Services', 'security guards,patrol services,event security,alarm response'],
  [561720, 'Janitorial Services', '7349', 'Building Cleaning and Maintenance Services, NEC', 'Janitorial service', 'facilities services', 'services', 3, 0, 'Cleaning,Facility Services,Maintenance,Services', 'commercial cleaning,janitorial services,green cleaning,facility maintenance'],
  [562111, 'Solid Waste Collection', '4212', 'Local Trucking Without Storage', 'Waste management service', 'environmental services', 'energy', 1, 1, 'Waste,Environmental,Recycling,Services', 'waste collection,recycling,dumpster rental,sustainability'],
  [221114, 'Solar Electric Power Generation', '4911', 'Electric Services', 'Solar energy company', 'renewables & environment', 'energy', 2, 1, 'Solar,Energy,Power,Renewables', 'solar panels,renewable energy,battery storage,energy savings'],
  [211120, 'Crude Petroleum Extraction', '1311', 'Crude Petroleum and Natural Gas', 'Oil & natural gas company', 'oil & energy', 'energy', 0.5, 2, 'Energy,Petroleum,Resources,Oil & Gas', 'upstream,exploration and production,drilling,energy transition'],
  [512110, 'Motion Picture and Video Production', '7812', 'Motion Picture and Video Tape Production', 'Video production service', 'media production', 'media', 2, 0, 'Films,Pictures,Productions,Studios', 'video production,commercials,post-production,documentaries'],
  [813211, 'Grantmaking Foundations', '6732', 'Educational, Religious, and Charitable Trusts', 'Non-profit organization', 'non-profit organization management', 'nonprofit', 2, 0, 'Foundation,Fund,Trust,Alliance', 'donate,grant programs,volunteer,our impact'],
  [541940, 'Veterinary Services', '0742', 'Veterinary Services for Animal Specialties', 'Veterinarian', 'veterinary', 'health', 2, 0, 'Animal Hospital,Veterinary,Pet Care,Vet Clinic', 'pet wellness,veterinary care,vaccinations,emergency vet'],
  [812112, 'Beauty Salons', '7231', 'Beauty Shops', 'Beauty salon', 'cosmetics', 'hospitality', 2, 0, 'Salon,Beauty,Spa,Studio', 'hair salon,book online,gift cards,bridal services'],
  [713940, 'Fitness and Recreational Sports Centers', '7991', 'Physical Fitness Facilities', 'Gym', 'health, wellness and fitness', 'hospitality', 2, 0, 'Fitness,Athletics,Gym,Training', 'personal training,group classes,membership,free trial pass'],
  [111219, 'Other Vegetable (except Potato) and Melon Farming', '0161', 'Vegetables and Melons', 'Farm', 'farming', 'industrial', 1, 0, 'Farms,Growers,Produce,Harvest', 'organic produce,farm to table,csa,wholesale growers'],
];

export const INDUSTRIES: readonly Industry[] = ROWS.map(
  ([
    naics,
    naicsDescription,
    sic,
    sicDescription,
    google,
    linkedin,
    kind,
    weight,
    scale,
    name,
    keywords,
  ]) => ({
    naics,
    naicsDescription,
    sic,
    sicDescription,
    google: [google],
    linkedin,
    kind,
    weight,
    scale,
    nameWords: words(name),
    keywords: words(keywords),
  }),
);
