/** Words that company names are built from: brand syllables, descriptive words, and news sources. */
import { words } from './names.js';

export const BRAND_HEADS = words(
  'Blue,Bright,Clear,North,Summit,Peak,Silver,Iron,Red,Green,Stone,River,Harbor,Pine,Cedar,Oak,Maple,Falcon,Eagle,Atlas,' +
    'Apex,Nova,Vertex,Quantum,Zen,Lumen,Vector,Orbit,Helix,Polar,Solar,Terra,Aqua,Swift,True,Prime,Core,Key,Fair,Great',
);
export const BRAND_TAILS = words(
  'line,path,point,field,bridge,wave,stack,forge,works,mark,view,wise,ly,io,ify,scape,gate,hub,bit,loop,craft,leaf,stone,way',
);
/** Coined words that stand alone as brands (Zyro, Quantiva …). */
export const COINED = words(
  'Zylo,Quantiva,Veritas,Novura,Axiom,Lumina,Corvex,Altura,Kinetix,Solvix,Brightlane,Omnira,Tessera,Aurelia,Strata,Velox,' +
    'Cobalt,Meridian,Pinnacle,Keystone,Sentinel,Horizon,Catalyst,Evergreen,Ironclad,Northwind,Bluebird,Redwood,Sterling,Beacon',
);
export const ADJECTIVES = words(
  'Golden,Copper,Silver,Little,Grand,Rustic,Urban,Coastal,Modern,Honest,Happy,Crimson',
);
export const NOUNS = words(
  'Kettle,Lantern,Anchor,Oak,Fox,Compass,Mill,Orchard,Spoon,Table,Barrel,Garden,Hearth,Owl',
);
/** Describes a company in a "The … Company"-style name. */
export const HOUSE_WORDS = words('Company,Collective,Shop,House,Kitchen,Works');
/** Group-level words appended to some names. */
export const GROUP_WORDS = words('Group,Holdings,International,Global,Partners');

/** Generic words in the language of non-English countries, used instead of the English industry words. */
export const LOCAL_WORDS: Readonly<Record<string, readonly string[]>> = {
  de: words('Logistik,Technik,Bau,Systeme,Beratung,Software,Handel,Energie,Maschinenbau,Immobilien'),
  ch: words('Technik,Beratung,Systeme,Immobilien,Treuhand'),
  fr: words('Conseil,Technologies,Solutions,Logistique,Ingénierie,Immobilier,Énergie'),
  es: words('Soluciones,Tecnologías,Consultores,Logística,Ingeniería,Servicios'),
  it: words('Soluzioni,Tecnologie,Consulenza,Logistica,Ingegneria,Servizi'),
  br: words('Soluções,Tecnologia,Consultoria,Logística,Engenharia,Serviços'),
  nl: words('Techniek,Advies,Logistiek,Bouw,Installatie'),
  se: words('Teknik,Konsult,Bygg,Logistik,Fastigheter'),
};

export const NEWS_SITES = words(
  'businesswire.com,prnewswire.com,globenewswire.com,techcrunch.com,reuters.com,bloomberg.com,finance.yahoo.com,venturebeat.com,forbes.com,bizjournals.com',
);
export const INVESTORS = words(
  'Sequoia Capital,Andreessen Horowitz,Accel,Index Ventures,Lightspeed Venture Partners,General Catalyst,Insight Partners,Tiger Global,' +
    'Bessemer Venture Partners,Y Combinator,Balderton Capital,Atomico,Point Nine,Greylock,Kleiner Perkins,SoftBank Vision Fund,' +
    'Battery Ventures,Khosla Ventures,Northzone,HV Capital,Partech,Elephant,Tribe Capital,Blackstone,KKR',
);
export const FUNDING_STAGES = words(
  'Pre-Seed,Seed,Series A,Series B,Series C,Series D,Series E,Venture Round,Private Equity,Debt Financing',
);
export const AWARD_BODIES = words(
  'Inc. Magazine,Forbes,Deloitte,Great Place to Work,Gartner,G2,Fast Company,Financial Times,Built In,Stevie Awards',
);
export const AWARDS = words(
  'Inc. 5000 Fastest-Growing Companies,Best Places to Work,Technology Fast 500,Cloud 100,Leader in the Magic Quadrant,' +
    "Best Software Award,Most Innovative Companies,FT 1000 Europe's Fastest Growing Companies,Top Workplaces,Customer Service Department of the Year",
);
