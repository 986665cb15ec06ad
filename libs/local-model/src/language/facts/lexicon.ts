/** English word lists for rule-based fact extraction. Lower case throughout. */

function set(...groups: string[]): ReadonlySet<string> {
  return new Set(groups.join(' ').split(/\s+/).filter(Boolean));
}

/** Family, partners, friends, colleagues and pets ("my sister", "I have two kids"). */
export const KIN = set(
  'wife husband partner spouse boyfriend girlfriend fiance fiancé fiancee fiancée ex',
  'son sons daughter daughters child children kid kids baby babies toddler twins teenager teenagers stepson stepdaughter stepkids stepchildren',
  'mother mom mum mommy mummy mama father dad daddy papa parents parent stepmom stepmother stepdad stepfather',
  'brother brothers sister sisters sibling siblings twin stepbrother stepsister half-brother half-sister',
  'grandmother grandma granny nana grandfather grandpa granddad grandparents grandson grandsons granddaughter granddaughters grandchildren grandkids',
  'aunt aunts uncle uncles cousin cousins niece nieces nephew nephews godson goddaughter godmother godfather',
  'mother-in-law father-in-law sister-in-law brother-in-law son-in-law daughter-in-law in-laws',
  'friend friends bestie roommate roommates flatmate flatmates housemate housemates neighbor neighbors neighbour neighbours',
  'boss manager coworker coworkers co-worker co-workers colleague colleagues cofounder co-founder teammate teammates mentor therapist landlord',
  'dog dogs cat cats puppy puppies kitten kittens pet pets horse horses rabbit rabbits bunny hamster hamsters parrot bird birds fish turtle tortoise snake lizard guinea',
);

/** Words that may sit between "my" and a kin noun ("my older sister", "my best friend"). */
export const KIN_MODIFIERS = set(
  'older younger little big elder eldest oldest youngest baby twin best ex late step new first second third only two three four',
);

export const PETS = set(
  'dog dogs cat cats puppy puppies kitten kittens pet pets horse horses rabbit rabbits bunny hamster hamsters parrot bird birds fish turtle tortoise snake lizard',
);

/** Head nouns of "I'm a/an …" that name a role or identity. */
export const ROLES = set(
  'nurse doctor chef cook student engineer developer programmer designer artist writer author lawyer attorney judge pilot architect',
  'accountant consultant analyst scientist researcher professor lecturer teacher tutor coach trainer therapist psychologist psychiatrist',
  'dentist surgeon physician pharmacist vet veterinarian paramedic firefighter officer soldier veteran marine sailor farmer baker',
  'butcher barista bartender waiter waitress cashier clerk receptionist secretary assistant manager director executive ceo cto cfo coo',
  'founder cofounder co-founder entrepreneur freelancer contractor intern apprentice mechanic electrician plumber carpenter builder painter',
  'photographer filmmaker producer editor journalist reporter blogger youtuber streamer musician singer drummer guitarist pianist composer',
  'dancer actor actress model athlete runner cyclist swimmer climber gamer coder hacker sysadmin devops sre pm',
  'mom mother dad father parent grandmother grandfather grandparent grandma grandpa wife husband homemaker housewife househusband retiree pensioner',
  'volunteer activist pastor priest rabbi imam monk nun librarian biologist chemist physicist mathematician statistician economist banker',
  'trader investor broker realtor agent salesperson marketer recruiter counselor counsellor caregiver carer nanny babysitter midwife doula',
  'translator interpreter linguist historian archaeologist geologist astronomer vegetarian vegan pescatarian introvert extrovert ambivert',
  'person owl bird beginner novice expert member citizen resident immigrant expat native graduate grad undergrad alumnus alumna alum phd',
  'freshman sophomore junior senior postdoc boy girl guy man woman lady gentleman', // only with a qualifier, see isRoleNoun
);

/** Nouns that end like a role ("-er") but are not one. */
export const NOT_ROLES = set(
  'user loser winner monster disaster number order matter answer error paper letter power water corner center centre manner other',
  'mess idiot fool liar weirdo failure mistake joke problem question fan bit lot little kind sort',
);

/** Words that only name a role with a qualifier ("a morning person", "a night owl"). */
export const QUALIFIED_ROLES = set('person owl bird boy girl guy man woman lady gentleman');

/** "I'm …" adjectives that state something lasting about the person. */
export const TRAITS = set(
  'vegetarian vegan pescatarian married single divorced separated engaged widowed pregnant retired unemployed self-employed freelance',
  'left-handed right-handed ambidextrous colorblind colourblind deaf blind diabetic epileptic autistic dyslexic asthmatic celiac coeliac',
  'introverted extroverted sober gay lesbian bisexual straight queer transgender trans nonbinary non-binary',
  'christian catholic protestant orthodox muslim jewish hindu buddhist sikh jain mormon atheist agnostic pagan quaker',
  'bilingual trilingual multilingual',
);

export const DEMONYMS = set(
  'american british english scottish welsh irish canadian mexican brazilian argentinian argentine chilean colombian peruvian venezuelan',
  'cuban portuguese spanish french german italian dutch belgian swiss austrian polish czech slovak hungarian romanian bulgarian greek',
  'turkish russian ukrainian belarusian swedish norwegian danish finnish icelandic estonian latvian lithuanian serbian croatian bosnian',
  'slovenian albanian israeli lebanese syrian iraqi iranian persian egyptian moroccan algerian tunisian nigerian ghanaian kenyan',
  'ethiopian indian pakistani bangladeshi nepali chinese japanese korean taiwanese vietnamese thai filipino filipina indonesian malaysian',
  'singaporean australian saudi emirati jordanian palestinian armenian georgian azerbaijani kazakh uzbek mongolian afghan jamaican',
  'haitian dominican ecuadorian bolivian paraguayan uruguayan guatemalan honduran salvadoran nicaraguan panamanian scandinavian',
  'european asian african latino latina hispanic arab kurdish catalan basque galician flemish texan californian',
);

/** Things a person has that are health facts ("I have asthma", "I have a peanut allergy"). */
export const CONDITIONS = set(
  'allergy allergies intolerance asthma diabetes adhd autism dyslexia epilepsy disease migraines migraine arthritis insomnia tinnitus',
  'condition disorder syndrome anemia anaemia eczema psoriasis',
);

/** "I have a/an … <noun> + date": appointments and other scheduled things. */
export const SCHEDULED = set(
  'appointment meeting interview exam test flight trip deadline date party wedding conference presentation surgery operation vacation',
  'holiday concert game match race marathon recital checkup check-up class lecture talk doctor dentist reservation booking shift',
  'performance show gig competition tournament ceremony graduation funeral birthday anniversary',
);

/** "I'm <verb>ing … + future date": progressive plans. */
export const PLAN_PROGRESSIVES = set(
  'flying travelling traveling going driving heading leaving moving meeting visiting starting seeing hosting attending having taking',
  'getting celebrating running giving presenting returning coming spending staying interviewing competing performing speaking graduating',
  'retiring relocating launching beginning joining hiking skiing camping',
);

/** "I usually/always …" verbs of a lifestyle (not of debugging). */
export const HABIT_VERBS = set(
  'wake get go run jog walk cycle bike swim work cook eat drink read play watch listen train exercise meditate commute drive take sleep',
  'study practice practise write visit call do bake garden hike climb travel shop',
);

/** Irregular past tenses (and past participles) that do not end in -ed. */
export const IRREGULAR_PAST = set(
  'went was were had did got made took came saw knew thought told became left felt brought began kept held wrote stood heard meant met',
  'ran paid sat spoke led grew lost fell sent built understood drew broke spent rose drove bought wore chose sought threw caught dealt',
  'won forgot sold fought hid flew sang swam taught slept woke ate drank rode shot hung found gave stuck struck tore bit blew bent bled',
  'fed fled forgave froze lent lit shook shone shrank sank slid stole swore swept swung wept wound overcame undertook began',
  'been gone done seen known taken given written eaten driven flown grown thrown worn chosen forgotten broken spoken stolen',
);

/** Base forms ending in -ed that are not past tenses. */
export const ED_BASES = set(
  'need feed bleed breed speed proceed succeed exceed embed shed wed seed heed weed',
);

/** Adverbs allowed between "I" and the verb ("I really love", "I just moved"). */
export const ADVERBS = set(
  'really also just still actually absolutely totally definitely usually always often sometimes generally mostly currently truly',
  'honestly genuinely seriously already finally recently even only literally personally normally typically originally now',
);

/** Adverbs dropped when the sentence is rewritten (they are about the telling, not the fact). */
export const DROPPED_ADVERBS = set(
  'actually honestly genuinely seriously literally personally just recently now',
);
