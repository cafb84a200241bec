/**
 * Personal names by culture: male and female first names and last names, with the accents and
 * hyphens real data has. Countries mix cultures with the weights of `places.ts`.
 */
/** Splits a comma-separated list: keeps the lists compact and one line each. */
export const words = (list: string): readonly string[] => list.split(',');

export interface Culture {
  male: readonly string[];
  female: readonly string[];
  last: readonly string[];
}

export const CULTURES: Readonly<Record<string, Culture>> = {
  anglo: {
    male: words(
      'James,John,Robert,Michael,William,David,Richard,Joseph,Thomas,Christopher,Daniel,Matthew,Andrew,Ryan,Brian,Kevin,Jason,Tyler,Ethan,Liam,Noah,Oliver,Jack,Harry,Connor,Sean,Marcus,Darnell,Jamal,Trevor',
    ),
    female: words(
      'Mary,Jennifer,Linda,Elizabeth,Sarah,Jessica,Karen,Emily,Ashley,Amanda,Megan,Lauren,Rachel,Hannah,Olivia,Emma,Sophie,Chloe,Grace,Charlotte,Zoë,Renée,Siobhan,Aisling,Keisha,Brittany,Kelly,Nicole,Heather,Molly',
    ),
    last: words(
      "Smith,Johnson,Williams,Brown,Jones,Miller,Davis,Wilson,Anderson,Taylor,Thomas,Moore,Martin,Thompson,White,Harris,Clark,Lewis,Walker,Hall,Young,King,Wright,Scott,Green,Baker,Adams,Nelson,Campbell,Mitchell,Roberts,Carter,Phillips,Evans,Turner,Parker,Collins,Edwards,Stewart,Morris,O'Brien,O'Connor,McDonald,MacLeod,Murphy,Kelly,Hughes,Price,Bennett,Wood,Barnes,Ross,Henderson,Coleman,Jenkins,Perry,Powell,Long,Patterson,Fisher",
    ),
  },
  hispanic: {
    male: words(
      'José,Juan,Carlos,Luis,Miguel,Jorge,Alejandro,Diego,Andrés,Javier,Fernando,Ricardo,Eduardo,Mateo,Santiago',
    ),
    female: words(
      'María,Guadalupe,Sofía,Valentina,Camila,Lucía,Isabella,Daniela,Gabriela,Ana,Mariana,Verónica,Ximena,Paula,Adriana',
    ),
    last: words(
      'García,Rodríguez,Martínez,Hernández,López,González,Pérez,Sánchez,Ramírez,Torres,Flores,Rivera,Gómez,Díaz,Reyes,Morales,Cruz,Ortiz,Gutiérrez,Chávez,Ramos,Vargas,Castillo,Jiménez,Ruiz',
    ),
  },
  spanish: {
    male: words(
      'Antonio,Manuel,José,Francisco,David,Javier,Daniel,Carlos,Jesús,Alejandro,Pablo,Sergio,Álvaro,Íñigo,Jordi,Xavier,Raúl,Adrián',
    ),
    female: words(
      'María,Carmen,Ana,Laura,Marta,Cristina,Lucía,Paula,Elena,Sara,Núria,Montserrat,Irene,Alba,Rocío,Begoña,Inés',
    ),
    last: words(
      'García,Fernández,González,Rodríguez,López,Martínez,Sánchez,Pérez,Gómez,Martín,Jiménez,Ruiz,Hernández,Díaz,Moreno,Álvarez,Muñoz,Romero,Navarro,Torres,Domínguez,Gil,Serrano,Ibáñez,Puig,Ferrer,Echeverría',
    ),
  },
  portuguese: {
    male: words(
      'João,Pedro,Lucas,Gabriel,Rafael,Felipe,Gustavo,Thiago,Matheus,Bruno,Rodrigo,André,Luís,Vinícius,Caio',
    ),
    female: words(
      'Ana,Maria,Juliana,Fernanda,Beatriz,Larissa,Camila,Letícia,Mariana,Gabriela,Luíza,Bárbara,Natália,Patrícia,Inês',
    ),
    last: words(
      'Silva,Santos,Oliveira,Souza,Rodrigues,Ferreira,Alves,Pereira,Lima,Gomes,Costa,Ribeiro,Martins,Carvalho,Araújo,Melo,Barbosa,Rocha,Conceição,Gonçalves,Magalhães,Brandão',
    ),
  },
  german: {
    male: words(
      'Lukas,Maximilian,Jonas,Felix,Leon,Paul,Tobias,Stefan,Thomas,Michael,Andreas,Jürgen,Matthias,Sebastian,Florian,Björn,Jörg,Moritz',
    ),
    female: words(
      'Anna,Lena,Laura,Julia,Sarah,Katharina,Sabine,Petra,Claudia,Andrea,Franziska,Jana,Lea,Sophie,Jülide,Anja,Käthe,Ute',
    ),
    last: words(
      'Müller,Schmidt,Schneider,Fischer,Weber,Meyer,Wagner,Becker,Schulz,Hoffmann,Schäfer,Koch,Bauer,Richter,Klein,Wolf,Schröder,Neumann,Schwarz,Zimmermann,Braun,Krüger,Hofmann,Hartmann,Lange,Köhler,Groß,Vogel,Jäger,Meier',
    ),
  },
  french: {
    male: words(
      'Jean,Pierre,Louis,Hugo,Lucas,Thomas,Nicolas,Julien,Antoine,Mathieu,François,Étienne,Jérôme,Benoît,Sébastien,Guillaume,Cédric,Théo',
    ),
    female: words(
      'Marie,Camille,Léa,Manon,Chloé,Julie,Sophie,Nathalie,Isabelle,Céline,Amélie,Hélène,Élodie,Aurélie,Margaux,Anaïs,Noémie,Clémence',
    ),
    last: words(
      'Martin,Bernard,Dubois,Thomas,Robert,Richard,Petit,Durand,Leroy,Moreau,Simon,Laurent,Lefèvre,Michel,Garcia,David,Bertrand,Roux,Vincent,Fournier,Morel,Girard,André,Lefebvre,Mercier,Dupont,Lambert,Bonnet,François,Chevalier',
    ),
  },
  italian: {
    male: words(
      'Marco,Alessandro,Giuseppe,Francesco,Luca,Matteo,Andrea,Lorenzo,Davide,Stefano,Giovanni,Niccolò,Federico,Paolo,Riccardo',
    ),
    female: words(
      'Giulia,Francesca,Chiara,Sara,Martina,Alessia,Valentina,Elena,Federica,Silvia,Elisa,Beatrice,Aurora,Ilaria,Gaia',
    ),
    last: words(
      'Rossi,Russo,Ferrari,Esposito,Bianchi,Romano,Colombo,Ricci,Marino,Greco,Bruno,Gallo,Conti,De Luca,Mancini,Costa,Giordano,Rizzo,Lombardi,Moretti,Fontana,Santoro,Barbieri,Caruso,Nicolò',
    ),
  },
  dutch: {
    male: words('Daan,Sem,Lucas,Jan,Pieter,Bram,Thijs,Ruben,Jeroen,Maarten,Sander,Joost,Wouter,Bas,Niels'),
    female: words(
      'Emma,Sophie,Julia,Anouk,Lotte,Fleur,Sanne,Eva,Femke,Lisa,Marieke,Ingrid,Esther,Noor,Mirjam',
    ),
    last: words(
      'de Jong,Jansen,de Vries,van den Berg,van Dijk,Bakker,Janssen,Visser,Smit,Meijer,de Boer,Mulder,de Groot,Bos,Vos,Peters,Hendriks,van Leeuwen,Dekker,Brouwer,van der Meer,Kuipers',
    ),
  },
  nordic: {
    male: words('Erik,Lars,Anders,Johan,Karl,Nils,Per,Mikael,Oskar,Björn,Gustav,Magnus,Søren,Fredrik,Henrik'),
    female: words('Anna,Maria,Karin,Sara,Emma,Elin,Ingrid,Linnéa,Astrid,Sofia,Maja,Frida,Åsa,Ebba,Malin'),
    last: words(
      'Andersson,Johansson,Karlsson,Nilsson,Eriksson,Larsson,Olsson,Persson,Svensson,Gustafsson,Pettersson,Jonsson,Lindberg,Lindström,Bergström,Åberg,Sjöberg,Holmqvist,Öberg,Wikström',
    ),
  },
  polish: {
    male: words('Piotr,Krzysztof,Tomasz,Paweł,Michał,Łukasz,Marcin,Jakub,Kamil,Mateusz,Wojciech,Grzegorz'),
    female: words(
      'Anna,Katarzyna,Małgorzata,Agnieszka,Magdalena,Joanna,Aleksandra,Zofia,Karolina,Monika,Natalia,Ewa',
    ),
    last: words(
      'Nowak,Kowalski,Wiśniewski,Wójcik,Kowalczyk,Kamiński,Lewandowski,Zieliński,Szymański,Woźniak,Dąbrowski,Kozłowski,Jankowski,Mazur',
    ),
  },
  russian: {
    male: words('Alexander,Dmitry,Sergey,Andrey,Alexey,Mikhail,Ivan,Yuri,Vladimir,Maxim,Igor,Pavel'),
    female: words('Anastasia,Elena,Olga,Natalia,Tatiana,Irina,Svetlana,Yulia,Ekaterina,Maria,Daria,Polina'),
    last: words(
      'Ivanov,Smirnov,Kuznetsov,Popov,Volkov,Sokolov,Lebedev,Kozlov,Novikov,Morozov,Petrov,Orlov,Gurevich,Kaplan',
    ),
  },
  turkish: {
    male: words('Mehmet,Mustafa,Ahmet,Ali,Hüseyin,Emre,Murat,Burak,Can,Serkan,Oğuz,Çağlar'),
    female: words('Ayşe,Fatma,Zeynep,Elif,Emine,Merve,Büşra,Gül,Özlem,Derya,Selin,Ebru'),
    last: words(
      'Yılmaz,Kaya,Demir,Şahin,Çelik,Yıldız,Yıldırım,Öztürk,Aydın,Özdemir,Arslan,Doğan,Kılıç,Aslan',
    ),
  },
  arabic: {
    male: words('Mohammed,Ahmed,Omar,Ali,Youssef,Karim,Hassan,Khalid,Tarek,Samir,Rami,Nabil,Bilal,Ziad'),
    female: words('Fatima,Aisha,Layla,Noor,Mariam,Yasmin,Salma,Rania,Hana,Leila,Nadia,Dina,Amira,Samira'),
    last: words(
      'Haddad,Khalil,Mansour,Nasser,Saleh,Hamdan,Aziz,Farah,Haddad,El-Amin,Al-Sayed,Ben Ali,Benali,Khoury,Darwish,Bakri,Najjar,Abboud',
    ),
  },
  hebrew: {
    male: words('Yosef,David,Daniel,Ariel,Itai,Noam,Eitan,Omer,Yonatan,Amit,Guy,Tomer,Avi,Roee,Uri,Nadav'),
    female: words('Noa,Tamar,Maya,Shira,Yael,Michal,Talia,Adi,Hila,Inbal,Liat,Efrat,Keren,Orly,Rotem,Dana'),
    last: words(
      'Cohen,Levi,Mizrahi,Peretz,Biton,Dahan,Avraham,Friedman,Katz,Azoulay,Ben-David,Shapiro,Goldberg,Rosenberg,Ben-Ami,Ashkenazi,Amar,Segal,Klein,Weiss',
    ),
  },
  indian: {
    male: words(
      'Rahul,Amit,Rohit,Vikram,Arjun,Rajesh,Suresh,Sanjay,Anil,Karthik,Pranav,Aditya,Nikhil,Vivek,Siddharth,Harish,Venkatesh,Manoj',
    ),
    female: words(
      'Priya,Anjali,Pooja,Neha,Divya,Kavya,Sneha,Ananya,Deepika,Lakshmi,Swati,Meera,Shreya,Aishwarya,Nandini,Radhika,Sunita,Ritu',
    ),
    last: words(
      'Sharma,Patel,Singh,Kumar,Gupta,Reddy,Rao,Iyer,Nair,Menon,Mehta,Shah,Joshi,Desai,Verma,Agarwal,Chatterjee,Banerjee,Mukherjee,Krishnan,Pillai,Kapoor,Malhotra,Bhat,Srinivasan,Subramanian,Chaudhary',
    ),
  },
  chinese: {
    male: words('Wei,Jun,Hao,Lei,Ming,Jian,Tao,Yang,Kevin,Jason,Bo,Chen,Zhiwei,Xiang,Jie'),
    female: words('Li,Mei,Ying,Xin,Jing,Fang,Hui,Lin,Yan,Grace,Jessica,Xiaoyu,Qian,Yue,Ting'),
    last: words(
      'Wang,Li,Zhang,Liu,Chen,Yang,Huang,Zhao,Wu,Zhou,Xu,Sun,Ma,Zhu,Hu,Guo,Lin,He,Tan,Lim,Ng,Wong,Chan,Lee,Goh',
    ),
  },
  japanese: {
    male: words(
      'Hiroshi,Takashi,Kenji,Daisuke,Yuki,Kazuki,Haruto,Sota,Ryota,Shota,Takumi,Naoki,Kenta,Tatsuya,Yusuke',
    ),
    female: words('Yuko,Aiko,Yui,Sakura,Haruka,Misaki,Ayaka,Nanami,Keiko,Tomoko,Mai,Emi,Rina,Saki,Natsuki'),
    last: words(
      'Sato,Suzuki,Takahashi,Tanaka,Watanabe,Ito,Yamamoto,Nakamura,Kobayashi,Kato,Yoshida,Yamada,Sasaki,Yamaguchi,Matsumoto,Inoue,Kimura,Hayashi,Shimizu,Saito,Ōno,Kondō',
    ),
  },
  korean: {
    male: words('Min-jun,Ji-hoon,Seo-jun,Hyun-woo,Dong-hyun,Sung-min,Jae-won,Joon'),
    female: words('Seo-yeon,Ji-woo,Min-ji,Soo-jin,Hye-jin,Eun-ji,Ji-eun,Yuna'),
    last: words('Kim,Lee,Park,Choi,Jung,Kang,Cho,Yoon,Jang,Lim,Han,Shin'),
  },
  vietnamese: {
    male: words('Minh,Anh,Huy,Tuấn,Dũng,Khoa,Long,Phúc,Quang,Bảo'),
    female: words('Linh,Trang,Hương,Thảo,Ngọc,Mai,Lan,Vy,Hà,Phương'),
    last: words('Nguyen,Tran,Le,Pham,Hoang,Phan,Vu,Dang,Bui,Do,Ngô,Dương'),
  },
  malay: {
    male: words('Muhammad,Ahmad,Hafiz,Faisal,Irfan,Azlan,Rizal,Hakim'),
    female: words('Nur,Siti,Aisyah,Farah,Nurul,Amirah,Zarina,Liyana'),
    last: words('Abdullah,Rahman,Ismail,Hassan,Ibrahim,Yusof,Osman,Hamid,Aziz,Salleh'),
  },
  nigerian: {
    male: words('Chinedu,Oluwaseun,Emeka,Tunde,Obinna,Ikenna,Babajide,Kelechi'),
    female: words('Ngozi,Chiamaka,Folake,Adaeze,Funmilayo,Temitope,Nneka,Yetunde'),
    last: words('Okafor,Adeyemi,Okonkwo,Balogun,Eze,Nwosu,Adebayo,Ogunleye,Obi,Afolabi'),
  },
};
