/**
 * Given-name groups: the first name of each group is its canonical form. A nickname listed in several
 * groups is ambiguous; it maps to the first group here and `givenNameVariants` returns all of them:
 *   chris (christopher, christina), alex (alexander, alexandra), sam (samuel, samantha),
 *   pat (patrick, patricia), jo (joanna, josephine), terry (terence, teresa), jerry (gerald, jerome),
 *   max (maximilian, maxwell), nate (nathaniel, nathan), harry (henry, harold), ted (edward, theodore),
 *   mel (melissa, melanie), jamie (james, jamie as a given name in its own right).
 * Spelling variants of one name share a group (stephen/steven, katherine/catherine/kathryn,
 * philip/phillip, geoffrey/jeffrey, mohammed/muhammad …), so they share one canonical form.
 * "liam" is deliberately not a william nickname: it is a given name in its own right.
 */
const GROUPS: readonly string[] = [
  'robert rob robbie robby bob bobby',
  'william will bill billy willy willie',
  'elizabeth elisabeth liz lizzie lizzy beth betty bette betsy eliza libby',
  'katherine catherine kathryn katharine kathrine kate katie katy kathy cathy kat kitty',
  'james jim jimmy jamie',
  'john jack johnny',
  'jonathan jon jonny',
  'michael mike mikey mick mickey',
  'david dave davey davy',
  'daniel dan danny',
  'christopher chris kris topher',
  'christina christine kristina kristine chris chrissy',
  'alexander alex alec xander',
  'alexandra alex alexa lexi',
  'samuel sam sammy',
  'samantha sam sammie',
  'thomas tom tommy',
  'joseph joe joey',
  'nicholas nicolas nick nicky',
  'matthew matt matty',
  'anthony antony tony',
  'stephen steven steve stevie',
  'andrew andy drew',
  'patrick pat paddy',
  'patricia pat patty patsy trish tricia',
  'richard rick ricky rich richie dick',
  'benjamin ben benny benji',
  'gregory greg',
  'jennifer jen jenn jenny',
  'susan sue susie suzy',
  'margaret meg peggy maggie marge margie',
  'edward ed eddie ted teddy ned',
  'charles charlie chuck chas',
  'timothy tim timmy',
  'kenneth ken kenny',
  'ronald ron ronnie',
  'donald don donnie',
  'douglas doug',
  'frederick fred freddie freddy',
  'gerald gerry jerry',
  'jerome jerry',
  'henry hank harry hal',
  'harold harry',
  'lawrence laurence larry',
  'leonard len lenny',
  'peter pete',
  'philip phillip phil',
  'raymond ray',
  'russell russ',
  'theodore theo ted',
  'walter walt wally',
  'zachary zach zack zak',
  'nathaniel nate nat',
  'nathan nate',
  'jeffrey geoffrey jeff jeffry',
  'joshua josh',
  'jacob jake',
  'vincent vince vinny',
  'victoria vicky vicki tori',
  'rebecca becky becca',
  'deborah debra deb debbie',
  'dorothy dot dottie',
  'barbara barb barbie',
  'abigail abby abbie',
  'amanda mandy',
  'angela angie',
  'cynthia cindy',
  'eleanor ellie nell',
  'frances fran frannie',
  'jacqueline jackie jacqui',
  'judith judy',
  'kimberly kimberley kim',
  'melissa mel missy',
  'melanie mel',
  'pamela pam',
  'sandra sandy',
  'stephanie steph',
  'teresa theresa terri tess tessa terry',
  'terence terrence terry',
  'valerie val',
  'virginia ginny',
  'gabriel gabe',
  'gabrielle gabriella gabby gabi',
  'isabella isabel isabelle bella izzy',
  'jessica jess jessie',
  'joanna joanne jo',
  'josephine jo josie',
  'maximilian max',
  'maxwell max',
  'mitchell mitch',
  'oliver ollie',
  'randall randy',
  'sebastian seb',
  'stanley stan',
  'tobias toby',
  'arthur art artie',
  'bartholomew bart',
  'bradley brad',
  'clifford cliff',
  'dominic dominick dom',
  'eugene gene',
  'herbert herb',
  'howard howie',
  'marvin marv',
  'norman norm',
  'reginald reg reggie',
  'abraham abe',
  'albert al',
  'mohammed mohamed mohammad mohamad muhammad muhammed',
];

function buildTables(): { canonical: Map<string, string>; variants: Map<string, readonly string[]> } {
  const canonical = new Map<string, string>();
  const sets = new Map<string, Set<string>>();
  for (const line of GROUPS) {
    const names = line.split(' ');
    const head = names[0] as string;
    for (const name of names) {
      if (!canonical.has(name)) canonical.set(name, head);
      const set = sets.get(name) ?? new Set<string>();
      for (const other of names) set.add(other);
      sets.set(name, set);
    }
  }
  const variants = new Map<string, readonly string[]>();
  for (const [name, set] of sets) variants.set(name, [...set].sort());
  return { canonical, variants };
}

const TABLES = buildTables();
/** Name → canonical given name (the first group wins for ambiguous nicknames). */
export const CANONICAL_GIVEN: ReadonlyMap<string, string> = TABLES.canonical;
/** Name → every name sharing a group with it (union over groups for ambiguous nicknames), sorted. */
export const GIVEN_VARIANTS: ReadonlyMap<string, readonly string[]> = TABLES.variants;
