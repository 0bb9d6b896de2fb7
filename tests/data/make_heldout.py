#!/usr/bin/env python3
"""Generate tests/data/heldout.jsonl: 200 held-out learner sentences labelled by §A13.

The sentences and their gold labels (verb, tense, person, error type, error span) are written
below by hand. Everything else -- the canonical English form, the accepted English forms, the
accepted Spanish forms and the corrected sentence -- is computed from the §A13 tables (§3-§4),
which are typed into this file. The set was written without looking at the analyser under
tutor/, so it can serve as an independent test of it.

Usage:  python tests/data/make_heldout.py            (writes heldout.jsonl next to this file)
"""
import json
import random
import re
from collections import Counter
from pathlib import Path

OUT = Path(__file__).with_name("heldout.jsonl")

# --------------------------------------------------------------------------------------------
# §A13 §2 -- scope
VERBS = ["work", "play", "walk", "talk", "listen", "watch", "study", "finish", "start", "look",
         "want", "like", "be", "have", "do", "go", "come", "see", "eat", "write"]
TENSES = {"inf": "infinitive", "pres": "present simple", "past": "past simple",
          "part": "past participle", "fut": "simple future"}
PERSONS = {1: "1st singular", 2: "2nd singular", 3: "3rd singular"}

# --------------------------------------------------------------------------------------------
# §A13 §3 -- English forms
REGULAR = {  # base: (3rd singular present, past simple = past participle)
    "work": ("works", "worked"), "play": ("plays", "played"), "walk": ("walks", "walked"),
    "talk": ("talks", "talked"), "listen": ("listens", "listened"),
    "watch": ("watches", "watched"), "study": ("studies", "studied"),
    "finish": ("finishes", "finished"), "start": ("starts", "started"),
    "look": ("looks", "looked"), "want": ("wants", "wanted"), "like": ("likes", "liked"),
}
IRREGULAR = {  # base: (present 1/2/3, past simple 1/2/3, past participle)
    "be": (("am", "are", "is"), ("was", "were", "was"), "been"),
    "have": (("have", "have", "has"), ("had", "had", "had"), "had"),
    "do": (("do", "do", "does"), ("did", "did", "did"), "done"),
    "go": (("go", "go", "goes"), ("went", "went", "went"), "gone"),
    "come": (("come", "come", "comes"), ("came", "came", "came"), "come"),
    "see": (("see", "see", "sees"), ("saw", "saw", "saw"), "seen"),
    "eat": (("eat", "eat", "eats"), ("ate", "ate", "ate"), "eaten"),
    "write": (("write", "write", "writes"), ("wrote", "wrote", "wrote"), "written"),
}


def english_forms(verb, tense, person):
    """Accepted English forms for a cell, canonical first (§3)."""
    i = person - 1
    if tense == "inf":
        return ["to " + verb, verb]
    if tense == "fut":
        return ["will " + verb]
    if verb in REGULAR:
        s3, ed = REGULAR[verb]
        return [{"pres": (verb, verb, s3)[i], "past": ed, "part": ed}[tense]]
    pres, past, part = IRREGULAR[verb]
    return [{"pres": pres[i], "past": past[i], "part": part}[tense]]


# --------------------------------------------------------------------------------------------
# §A13 §4 -- Spanish forms
LEMMAS = {  # canonical lemma first
    "work": ["trabajar"], "play": ["jugar", "tocar"], "walk": ["caminar", "andar", "pasear"],
    "talk": ["hablar"], "listen": ["escuchar"], "watch": ["ver", "mirar"],
    "study": ["estudiar"], "finish": ["terminar", "acabar"], "start": ["empezar", "comenzar"],
    "look": ["mirar", "parecer"], "want": ["querer", "desear"], "like": ["gustar"],
    "be": ["ser", "estar"], "have": ["tener", "haber"], "do": ["hacer"], "go": ["ir"],
    "come": ["venir"], "see": ["ver"], "eat": ["comer"], "write": ["escribir"],
}
CONJ = {  # lemma: (presente yo/tú/él, indefinido yo/tú/él, futuro yo/tú/él, participio)
    "trabajar": ("trabajo trabajas trabaja", "trabajé trabajaste trabajó",
                 "trabajaré trabajarás trabajará", "trabajado"),
    "jugar": ("juego juegas juega", "jugué jugaste jugó", "jugaré jugarás jugará", "jugado"),
    "tocar": ("toco tocas toca", "toqué tocaste tocó", "tocaré tocarás tocará", "tocado"),
    "caminar": ("camino caminas camina", "caminé caminaste caminó",
                "caminaré caminarás caminará", "caminado"),
    "andar": ("ando andas anda", "anduve anduviste anduvo", "andaré andarás andará", "andado"),
    "pasear": ("paseo paseas pasea", "paseé paseaste paseó", "pasearé pasearás paseará",
               "paseado"),
    "hablar": ("hablo hablas habla", "hablé hablaste habló", "hablaré hablarás hablará",
               "hablado"),
    "escuchar": ("escucho escuchas escucha", "escuché escuchaste escuchó",
                 "escucharé escucharás escuchará", "escuchado"),
    "ver": ("veo ves ve", "vi viste vio", "veré verás verá", "visto"),
    "mirar": ("miro miras mira", "miré miraste miró", "miraré mirarás mirará", "mirado"),
    "estudiar": ("estudio estudias estudia", "estudié estudiaste estudió",
                 "estudiaré estudiarás estudiará", "estudiado"),
    "terminar": ("termino terminas termina", "terminé terminaste terminó",
                 "terminaré terminarás terminará", "terminado"),
    "acabar": ("acabo acabas acaba", "acabé acabaste acabó", "acabaré acabarás acabará",
               "acabado"),
    "empezar": ("empiezo empiezas empieza", "empecé empezaste empezó",
                "empezaré empezarás empezará", "empezado"),
    "comenzar": ("comienzo comienzas comienza", "comencé comenzaste comenzó",
                 "comenzaré comenzarás comenzará", "comenzado"),
    "parecer": ("parezco pareces parece", "parecí pareciste pareció",
                "pareceré parecerás parecerá", "parecido"),
    "querer": ("quiero quieres quiere", "quise quisiste quiso", "querré querrás querrá",
               "querido"),
    "desear": ("deseo deseas desea", "deseé deseaste deseó", "desearé desearás deseará",
               "deseado"),
    "ser": ("soy eres es", "fui fuiste fue", "seré serás será", "sido"),
    "estar": ("estoy estás está", "estuve estuviste estuvo", "estaré estarás estará", "estado"),
    "tener": ("tengo tienes tiene", "tuve tuviste tuvo", "tendré tendrás tendrá", "tenido"),
    "haber": ("he has ha", "hube hubiste hubo", "habré habrás habrá", "habido"),
    "hacer": ("hago haces hace", "hice hiciste hizo", "haré harás hará", "hecho"),
    "ir": ("voy vas va", "fui fuiste fue", "iré irás irá", "ido"),
    "venir": ("vengo vienes viene", "vine viniste vino", "vendré vendrás vendrá", "venido"),
    "comer": ("como comes come", "comí comiste comió", "comeré comerás comerá", "comido"),
    "escribir": ("escribo escribes escribe", "escribí escribiste escribió",
                 "escribiré escribirás escribirá", "escrito"),
}
CLITIC = {1: "me", 2: "te", 3: "le"}
GUSTAR = {"pres": ("gusta", "gustan"), "past": ("gustó", "gustaron"),
          "fut": ("gustará", "gustarán")}


def spanish_forms(verb, tense, person):
    """Accepted Spanish forms for a cell, canonical lemma first (§4)."""
    if verb == "like":
        if tense == "inf":
            return ["gustar"]
        if tense == "part":
            return ["gustado"]
        sg, pl = GUSTAR[tense]
        c = CLITIC[person]
        return [f"{c} {sg}", f"{c} {pl}", sg, pl]
    out = []
    for lemma in LEMMAS[verb]:
        pres, past, fut, part = CONJ[lemma]
        if tense == "inf":
            form = lemma
        elif tense == "part":
            form = part
        else:
            form = {"pres": pres, "past": past, "fut": fut}[tense].split()[person - 1]
        if form not in out:
            out.append(form)
    return out


# --------------------------------------------------------------------------------------------
# The items.  In scope: (original, verb, tense, person, error_type, error_span).
# error_span is the exact wrong text; for `correct` items, the verb as written.
# Conventions (as in the dev set): a separate "will" belongs to the span ("will talks"),
# a contracted 'll does not ("I'll came" -> span "came"); "for"/"to" belong to the span of an
# infinitive_form error ("for watch", "to came"); a missing "to" has the bare verb as span.
IN_SCOPE = [
    # ---- wrong_participle: after have/has/had (incl. haven't/hasn't/'ve) or in a passive
    ("I have never saw the sea, can you believe it?", "see", "part", 1, "wrong_participle", "saw"),
    ("My abuela has wrote three books about the history of Oaxaca.", "write", "part", 3, "wrong_participle", "wrote"),
    ("Have you ate ceviche before? It's delicious.", "eat", "part", 2, "wrong_participle", "ate"),
    ("She hasn't finish the report yet, so the boss is angry.", "finish", "part", 3, "wrong_participle", "finish"),
    ("The match was watch by millions of people in Argentina.", "watch", "part", 3, "wrong_participle", "watch"),
    ("Everybody in my class has went to Cancún except me.", "go", "part", 3, "wrong_participle", "went"),
    ("Nobody has ever like my cooking, not even my mom.", "like", "part", 3, "wrong_participle", "like"),
    ("Have you ever did something crazy?", "do", "part", 2, "wrong_participle", "did"),
    ("the pakage has came this morning but nobody was at home", "come", "part", 3, "wrong_participle", "came"),
    ("I've never watch a horror movie alone, I'm too scared.", "watch", "part", 1, "wrong_participle", "watch"),
    ("Carmen, you haven't work a single day this month!", "work", "part", 2, "wrong_participle", "work"),
    ("All the homework was did by my sister, not by me!", "do", "part", 3, "wrong_participle", "did"),
    ("Had you ever talk to her before the wedding?", "talk", "part", 2, "wrong_participle", "talk"),
    ("I haven't study for the exam and it's tomorrow!", "study", "part", 1, "wrong_participle", "study"),
    ("Mr. Ramírez has walk ten kilometres today.", "walk", "part", 3, "wrong_participle", "walk"),
    ("The letter was write in Spanish, so I didn't understand it.", "write", "part", 3, "wrong_participle", "write"),
    ("My little brother has never seed a real elephant.", "see", "part", 3, "wrong_participle", "seed"),
    ("You've eated all my cookies!", "eat", "part", 2, "wrong_participle", "eated"),
    ("My phone has haved this problem since I bought it.", "have", "part", 3, "wrong_participle", "haved"),
    ("I have be very busy this week, sorry for not answering.", "be", "part", 1, "wrong_participle", "be"),
    ("The film has start already, hurry up!", "start", "part", 3, "wrong_participle", "start"),
    ("Have you listen to the new album of Bad Bunny?", "listen", "part", 2, "wrong_participle", "listen"),
    ("Before that trip I had never went out of Peru.", "go", "part", 1, "wrong_participle", "went"),
    ("She has look really tired all week, poor thing.", "look", "part", 3, "wrong_participle", "look"),
    ("I have always want to visit Japan.", "want", "part", 1, "wrong_participle", "want"),

    # ---- wrong_future: after will / 'll
    ("Don't worry, I'll finished the project before Friday.", "finish", "fut", 1, "wrong_future", "finished"),
    ("Next year my sister will studies in Madrid.", "study", "fut", 3, "wrong_future", "will studies"),
    ("You will to like this place, I promise.", "like", "fut", 2, "wrong_future", "will to like"),
    ("I will went to the party if you come with me, but only if Diego doesn't bring his annoying friends.", "go", "fut", 1, "wrong_future", "will went"),
    ("She'll has a baby in March!", "have", "fut", 3, "wrong_future", "has"),
    ("Will you eats with us on Sunday?", "eat", "fut", 2, "wrong_future", "eats"),
    ("The teacher will writes the results on the board.", "write", "fut", 3, "wrong_future", "will writes"),
    ("I WILL SAW YOU TOMORROW AT THE AIRPORT", "see", "fut", 1, "wrong_future", "WILL SAW"),
    ("Maybe it will is sunny tomorrow", "be", "fut", 3, "wrong_future", "will is"),
    ("My boss says he will talked with me later.", "talk", "fut", 3, "wrong_future", "will talked"),
    ("If you practise every day, you'll played like a pro.", "play", "fut", 2, "wrong_future", "played"),
    ("Carlos will starts his new job on Monday.", "start", "fut", 3, "wrong_future", "will starts"),
    ("i will walked to school tomorrow becuase my bike is broken", "walk", "fut", 1, "wrong_future", "will walked"),
    ("Will she comes to the quinceañera?", "come", "fut", 3, "wrong_future", "comes"),
    ("Don't call me tonight, I will to work late.", "work", "fut", 1, "wrong_future", "will to work"),
    ("You will watched the final with us, right?", "watch", "fut", 2, "wrong_future", "will watched"),
    ("Nobody will wants to eat that.", "want", "fut", 3, "wrong_future", "will wants"),
    ("I promise I'll did all the dishes tonight.", "do", "fut", 1, "wrong_future", "did"),
    ("Next summer you will listened to real flamenco in Sevilla.", "listen", "fut", 2, "wrong_future", "will listened"),
    ("Your hair will looked great, don't worry.", "look", "fut", 3, "wrong_future", "will looked"),

    # ---- infinitive_form: missing to, to + inflected form, for + verb
    ("My dad saves money for go to Spain next year.", "go", "inf", 3, "infinitive_form", "for go"),
    ("I need talk to you before my mom gets home.", "talk", "inf", 1, "infinitive_form", "talk"),
    ("She wants to went to the beach this weekend.", "go", "inf", 3, "infinitive_form", "to went"),
    ("Do you want come to my house on Saturday?", "come", "inf", 2, "infinitive_form", "come"),
    ("I hope to saw you soon!", "see", "inf", 1, "infinitive_form", "to saw"),
    ("My sister wants to studies medicine.", "study", "inf", 3, "infinitive_form", "to studies"),
    ("I like play the guitar when I feel sad.", "play", "inf", 1, "infinitive_form", "play"),
    ("You need to ate more vegetables, mijo.", "eat", "inf", 2, "infinitive_form", "to ate"),
    ("I went to the library after class for write my essay because at home my little brothers make too much noise.", "write", "inf", 1, "infinitive_form", "for write"),
    ("He decided to watched the game at home.", "watch", "inf", 3, "infinitive_form", "to watched"),
    ("i forgot to did my homework again", "do", "inf", 1, "infinitive_form", "to did"),
    ("I called my friend for talk about the problem.", "talk", "inf", 1, "infinitive_form", "for talk"),
    ("You have to listens to me, please.", "listen", "inf", 2, "infinitive_form", "to listens"),
    ("My brother started to walked every morning.", "walk", "inf", 3, "infinitive_form", "to walked"),
    ("She practises every day for finish the marathon in under four hours.", "finish", "inf", 3, "infinitive_form", "for finish"),
    ("I'm so happy to has you here.", "have", "inf", 1, "infinitive_form", "to has"),
    ("My grandma needs see the doctor this week.", "see", "inf", 3, "infinitive_form", "see"),
    ("You promised to wrote me every week!", "write", "inf", 2, "infinitive_form", "to wrote"),
    ("Everybody in my family loves eat paella on Sundays.", "eat", "inf", 3, "infinitive_form", "eat"),
    ("My cousin Andrés wants work in a hotel.", "work", "inf", 3, "infinitive_form", "work"),
    ("He always tries to looks elegant.", "look", "inf", 3, "infinitive_form", "to looks"),
    ("You pretend to likes my food, but I know the truth.", "like", "inf", 2, "infinitive_form", "to likes"),
    ("I want have a big family someday.", "have", "inf", 1, "infinitive_form", "have"),
    ("Did you travel all the way to Japan for watch the Olympics?", "watch", "inf", 2, "infinitive_form", "for watch"),

    # ---- missing_3sg_s: base form with a 3rd-singular subject in the present
    ("My mom work in a hospital in Bogotá and when she gets home at night she is always very tired.", "work", "pres", 3, "missing_3sg_s", "work"),
    ("The concert start at nine, don't be late!", "start", "pres", 3, "missing_3sg_s", "start"),
    ("Ramón play the drums in a rock band.", "play", "pres", 3, "missing_3sg_s", "play"),
    ("everybody in my office talk about football all day", "talk", "pres", 3, "missing_3sg_s", "talk"),
    ("My little brother watch cartoons every morning before school.", "watch", "pres", 3, "missing_3sg_s", "watch"),
    ("She go to the gym three times a week.", "go", "pres", 3, "missing_3sg_s", "go"),
    ("My cat only like fish, she hates chicken.", "like", "pres", 3, "missing_3sg_s", "like"),
    ("Your new haircut look great, Mariana!", "look", "pres", 3, "missing_3sg_s", "look"),
    ("My abuelo walk his dog evrey evening.", "walk", "pres", 3, "missing_3sg_s", "walk"),
    ("The class finish at 3:30 on Fridays.", "finish", "pres", 3, "missing_3sg_s", "finish"),
    ("My best friend want to be a pilot.", "want", "pres", 3, "missing_3sg_s", "want"),
    ("Laura always do her homework after dinner, she's very responsible.", "do", "pres", 3, "missing_3sg_s", "do"),
    ("He come to my house every Saturday for lunch.", "come", "pres", 3, "missing_3sg_s", "come"),
    ("The baby eat everything, even paper!", "eat", "pres", 3, "missing_3sg_s", "eat"),
    ("My teacher write very long comments on my essays.", "write", "pres", 3, "missing_3sg_s", "write"),
    ("Nobody listen to me in this house!", "listen", "pres", 3, "missing_3sg_s", "listen"),
    ("My sister study law at la UNAM.", "study", "pres", 3, "missing_3sg_s", "study"),
    ("He always see his girlfriend on weekends.", "see", "pres", 3, "missing_3sg_s", "see"),
    ("EVERYBODY WANT A PIECE OF THE CAKE", "want", "pres", 3, "missing_3sg_s", "WANT"),
    ("My son play video games all night, it's terrible.", "play", "pres", 3, "missing_3sg_s", "play"),
    ("The train go very fast in Japan.", "go", "pres", 3, "missing_3sg_s", "go"),
    ("Isabel start work at 7 every day.", "start", "pres", 3, "missing_3sg_s", "start"),

    # ---- wrong_3sg: -s form with I / you, or a misspelled 3rd-singular form
    ("You likes reggaeton, right?", "like", "pres", 2, "wrong_3sg", "likes"),
    ("I works from home on Mondays and Fridays.", "work", "pres", 1, "wrong_3sg", "works"),
    ("You plays the piano really well!", "play", "pres", 2, "wrong_3sg", "plays"),
    ("I watches the news every night with my dad.", "watch", "pres", 1, "wrong_3sg", "watches"),
    ("My brother studys engineering at the university.", "study", "pres", 3, "wrong_3sg", "studys"),
    ("She watchs too many series on Netflix.", "watch", "pres", 3, "wrong_3sg", "watchs"),
    ("The movie finishs at midnight, it's too late for me.", "finish", "pres", 3, "wrong_3sg", "finishs"),
    ("He gos to church every Sunday with his grandma.", "go", "pres", 3, "wrong_3sg", "gos"),
    ("you talks too fast, I don't understand you", "talk", "pres", 2, "wrong_3sg", "talks"),
    ("I sees my grandparents every December.", "see", "pres", 1, "wrong_3sg", "sees"),
    ("You eats a lot of sugar, be careful.", "eat", "pres", 2, "wrong_3sg", "eats"),
    ("I writes in my diary evry night.", "write", "pres", 1, "wrong_3sg", "writes"),
    ("Lucía studys every night until 2 a.m.", "study", "pres", 3, "wrong_3sg", "studys"),
    ("You looks tired, are you OK?", "look", "pres", 2, "wrong_3sg", "looks"),
    ("I comes from a small town near Cusco.", "come", "pres", 1, "wrong_3sg", "comes"),
    ("I wants a new phone for my birthday.", "want", "pres", 1, "wrong_3sg", "wants"),
    ("Sometimes you listens to music too loud.", "listen", "pres", 2, "wrong_3sg", "listens"),

    # ---- overregularised_past: goed, eated ... or double-marked wented, camed ...
    ("Last weekend I goed to the mountains with my dad.", "go", "past", 1, "overregularised_past", "goed"),
    ("She wented home early because she felt sick.", "go", "past", 3, "overregularised_past", "wented"),
    ("My dog eated my homework, I swear!", "eat", "past", 3, "overregularised_past", "eated"),
    ("I writed a letter to Santa when I was six.", "write", "past", 1, "overregularised_past", "writed"),
    ("You comed to my party in 2019, remember?", "come", "past", 2, "overregularised_past", "comed"),
    ("I seed a famous actor at the airport yesterday.", "see", "past", 1, "overregularised_past", "seed"),
    ("My mom doed everything for the party alone.", "do", "past", 3, "overregularised_past", "doed"),
    ("I haved a terrible headache last night.", "have", "past", 1, "overregularised_past", "haved"),
    ("you ated all the tortillas!!", "eat", "past", 2, "overregularised_past", "ated"),
    ("The professor camed late to class today.", "come", "past", 3, "overregularised_past", "camed"),
    ("I wroted my first poem at school.", "write", "past", 1, "overregularised_past", "wroted"),
    ("You sawed the eclipse last year, didn't you?", "see", "past", 2, "overregularised_past", "sawed"),
    ("You doed a great job yesterday!", "do", "past", 2, "overregularised_past", "doed"),
    ("Grandpa haved a farm in Jalisco when he was young.", "have", "past", 3, "overregularised_past", "haved"),
    ("Two years ago I comed to Spain with nothing.", "come", "past", 1, "overregularised_past", "comed"),
    ("my girlfriend goed to Paris without me last summer", "go", "past", 3, "overregularised_past", "goed"),
    ("Yesterday you writed me a very long message.", "write", "past", 2, "overregularised_past", "writed"),
    ("Everybody seed the accident, but nobody called the police.", "see", "past", 3, "overregularised_past", "seed"),
    ("I wented to the doctor on Monday and he said I'm fine, but I still feel terrible.", "go", "past", 1, "overregularised_past", "wented"),
    ("You haved a lot of luck in that game.", "have", "past", 2, "overregularised_past", "haved"),

    # ---- base_for_past: base form in a clearly past context
    ("Yesterday I walk to school because my bike was broken.", "walk", "past", 1, "base_for_past", "walk"),
    ("Last night my brother eat all the pizza.", "eat", "past", 3, "base_for_past", "eat"),
    ("In 2018 I start to study English.", "start", "past", 1, "base_for_past", "start"),
    ("Two weeks ago you talk with my boss, remember?", "talk", "past", 2, "base_for_past", "talk"),
    ("last summer i work in a restaurant in Miami", "work", "past", 1, "base_for_past", "work"),
    ("My grandmother come to visit us last Christmas.", "come", "past", 3, "base_for_past", "come"),
    ("Yesterday the teacher finish the class early.", "finish", "past", 3, "base_for_past", "finish"),
    ("When I was a child I play with dolls every day.", "play", "past", 1, "base_for_past", "play"),
    ("Last Friday you watch the game at Pedro's house.", "watch", "past", 2, "base_for_past", "watch"),
    ("Last week I have a big exam in chemistry.", "have", "past", 1, "base_for_past", "have"),
    ("Yesterday my dad see a snake in the garden.", "see", "past", 3, "base_for_past", "see"),
    ("Three days ago I listen to that podcast you recommended.", "listen", "past", 1, "base_for_past", "listen"),
    ("In 2015 she go to Italy for her honeymoon.", "go", "past", 3, "base_for_past", "go"),
    ("Last year you study a lot, and now you have a good job.", "study", "past", 2, "base_for_past", "study"),
    ("Yesterday I do yoga for the first time and now everything hurts.", "do", "past", 1, "base_for_past", "do"),
    ("Last month my uncle write a book about the history of football in Uruguay, and now everybody wants a copy.", "write", "past", 3, "base_for_past", "write"),
    ("YESTERDAY I WANT TO CALL YOU BUT I FORGOT", "want", "past", 1, "base_for_past", "WANT"),
    ("Last Sunday my cousin look really happy at her wedding.", "look", "past", 3, "base_for_past", "look"),
    ("When you were little you like carrots, now you hate them.", "like", "past", 2, "base_for_past", "like"),
    ("Two years ago Sofía have a small shop in Quito.", "have", "past", 3, "base_for_past", "have"),

    # ---- wrong_be: wrong form (or tense) of be in the present or past simple
    ("My brother are a doctor in Monterrey.", "be", "pres", 3, "wrong_be", "are"),
    ("I is very happy with my new job.", "be", "pres", 1, "wrong_be", "is"),
    ("I think you is the best teacher in the school.", "be", "pres", 2, "wrong_be", "is"),
    ("The weather in Lima are horrible in winter.", "be", "pres", 3, "wrong_be", "are"),
    ("I are so tired today, I want to sleep.", "be", "pres", 1, "wrong_be", "are"),
    ("everybody are here so lets start", "be", "pres", 3, "wrong_be", "are"),
    ("I were very nervous on my first day at the new school.", "be", "past", 1, "wrong_be", "were"),
    ("You was at the party last night, right?", "be", "past", 2, "wrong_be", "was"),
    ("My grandfather were a fisherman in Veracruz.", "be", "past", 3, "wrong_be", "were"),
    ("Yesterday I am sick, so I didn't go to class.", "be", "past", 1, "wrong_be", "am"),
    ("Last year you are my teacher, don't you remember me?", "be", "past", 2, "wrong_be", "are"),
    ("WHERE WERE SHE LAST NIGHT?", "be", "past", 3, "wrong_be", "WERE"),

    # ---- wrong_have: wrong present-simple form of have
    ("My sister have two kids and a dog.", "have", "pres", 3, "wrong_have", "have"),
    ("I has a lot of work this week.", "have", "pres", 1, "wrong_have", "has"),
    ("You has beautiful eyes, Camila.", "have", "pres", 2, "wrong_have", "has"),
    ("The hotel have a big pool and a gym.", "have", "pres", 3, "wrong_have", "have"),
    ("Mi amigo Jorge have a motorcycle", "have", "pres", 3, "wrong_have", "have"),
    ("My phone haves a great camera.", "have", "pres", 3, "wrong_have", "haves"),
    ("Do you know if she have a boyfriend?", "have", "pres", 3, "wrong_have", "have"),
    ("you has a very nice apartment, is it expensive?", "have", "pres", 2, "wrong_have", "has"),

    # ---- correct: one lexical verb (or will + verb), labelled as written
    ("My sister studies medicine in Buenos Aires.", "study", "pres", 3, "correct", "studies"),
    ("I watched the final with my uncle last night.", "watch", "past", 1, "correct", "watched"),
    ("You will see the difference in a few weeks.", "see", "fut", 2, "correct", "will see"),
    ("Don Pedro walks to the market every morning.", "walk", "pres", 3, "correct", "walks"),
    ("I am from Cali, Colombia.", "be", "pres", 1, "correct", "am"),
    ("Are you ready for the trip?", "be", "pres", 2, "correct", "Are"),
    ("My grandmother wrote me a letter for my birthday.", "write", "past", 3, "correct", "wrote"),
    ("I will finish the report tomorrow morning.", "finish", "fut", 1, "correct", "will finish"),
    ("Yesterday you came home very late.", "come", "past", 2, "correct", "came"),
    ("She has two brothers and a sister.", "have", "pres", 3, "correct", "has"),
    ("My dog likes the beach.", "like", "pres", 3, "correct", "likes"),
    ("The movie was amazing!", "be", "past", 3, "correct", "was"),
    ("I ate paella in Valencia last summer.", "eat", "past", 1, "correct", "ate"),
    ("you play the guitar really well", "play", "pres", 2, "correct", "play"),
    ("My father will start a new job in January.", "start", "fut", 3, "correct", "will start"),
    ("I talked with the director yesterday.", "talk", "past", 1, "correct", "talked"),
    ("You did a great job.", "do", "past", 2, "correct", "did"),
    ("Everybody wants a ticket for the concert.", "want", "pres", 3, "correct", "wants"),
]

# Out of scope: (original, out_of_scope_verb, error_span, corrected). No form of the 20 verbs.
OUT_OF_SCOPE = [
    ("My father buyed a new car last month.", "buy", "buyed", "My father bought a new car last month."),
    ("I catched the ball with one hand!", "catch", "catched", "I caught the ball with one hand!"),
    ("She teached me how to swim.", "teach", "teached", "She taught me how to swim."),
    ("Yesterday I sleeped for twelve hours.", "sleep", "sleeped", "Yesterday I slept for twelve hours."),
    ("My cousin drive a taxi in Santiago.", "drive", "drive", "My cousin drives a taxi in Santiago."),
    ("I will bought the tickets tomorrow.", "buy", "will bought", "I will buy the tickets tomorrow."),
    ("Mi hermano runned the marathon in three hours.", "run", "runned", "Mi hermano ran the marathon in three hours."),
    ("you knows the answer, tell me", "know", "knows", "you know the answer, tell me"),
    ("I hope pass the exam on Friday.", "pass", "pass", "I hope to pass the exam on Friday."),
    ("The baby cryed all night.", "cry", "cryed", "The baby cried all night."),
    ("My mom cook the best tamales in the world.", "cook", "cook", "My mom cooks the best tamales in the world."),
    ("My neighbour choosed the red one.", "choose", "choosed", "My neighbour chose the red one."),
    ("I need money for buy a new laptop.", "buy", "for buy", "I need money to buy a new laptop."),
    ("Tomorrow I will to call my mother.", "call", "will to call", "Tomorrow I will call my mother."),
]

# --------------------------------------------------------------------------------------------
# Every form of the 20 verbs (incl. -ing and negative/contracted forms), for the checks below.
ALL_FORMS = set()
for v in VERBS:
    ALL_FORMS.add(v)
    ALL_FORMS.add(v + "ing" if not v.endswith("e") or v in ("be", "see") else v[:-1] + "ing")
    for t in ("pres", "past", "part"):
        for p in (1, 2, 3):
            ALL_FORMS.update(english_forms(v, t, p))
ALL_FORMS |= {"having", "doing", "going", "coming", "seeing", "eating", "writing", "being",
              "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "haven't",
              "hasn't", "hadn't", "i'm", "i've", "i'd", "'s", "'m", "'re", "'ve", "'d",
              "dont", "doesnt", "didnt", "im"}


def tokens(sentence):
    s = sentence.lower().replace("\u2019", "'")
    toks = re.findall(r"[a-záéíóúñü]+(?:'[a-z]+)?", s)
    out = []
    for t in toks:
        out.append(t)
        if "'" in t:
            out.append("'" + t.split("'", 1)[1])
    return out


def match_case(template, text):
    if template.isupper() and len(template) > 1:
        return text.upper()
    if template[:1].isupper():
        return text[:1].upper() + text[1:]
    return text


def corrected_sentence(original, span, replacement):
    pat = r"(?<![\w'])" + re.escape(span) + r"(?![\w'])"
    hits = list(re.finditer(pat, original))
    assert len(hits) == 1, (original, span, len(hits))
    h = hits[0]
    return original[:h.start()] + match_case(span, replacement) + original[h.end():]


def build():
    items = []
    for original, verb, t, p, etype, span in IN_SCOPE:
        assert verb in VERBS and t in TENSES and p in PERSONS, original
        cf_acc = english_forms(verb, t, p)
        es_acc = spanish_forms(verb, t, p)
        canonical = cf_acc[0]
        if etype == "correct":
            assert span.lower() == canonical, (original, span, canonical)
            assert re.search(r"(?<![\w'])" + re.escape(span) + r"(?![\w'])", original)
            others = [w for w in tokens(original) if w in ALL_FORMS]
            assert others == span.lower().split()[-1:], (original, others)
            corrected = original
        else:
            # (a missing "to" leaves the bare base, which §3 accepts as an infinitive form)
            assert span.lower() != canonical, (original, span)
            replacement = canonical
            if t == "fut" and not span.lower().startswith("will"):
                replacement = canonical[len("will "):]      # "I'll came" -> "I'll come"
            corrected = corrected_sentence(original, span, replacement)
        items.append({
            "original": original,
            "gold": {"verb": verb, "tense": TENSES[t], "person": PERSONS[p],
                     "correct_form": canonical},
            "correct_form_accepted": cf_acc,
            "spanish_accepted": es_acc,
            "error_type": etype,
            "error_span": span,
            "corrected": corrected,
        })
    for original, oos_verb, span, corrected in OUT_OF_SCOPE:
        bad = [w for w in tokens(original) + tokens(corrected) if w in ALL_FORMS]
        assert not bad, (original, bad)
        assert oos_verb not in VERBS
        assert span in original
        items.append({
            "original": original, "gold": None, "correct_form_accepted": [],
            "spanish_accepted": [], "error_type": "out_of_scope", "error_span": span,
            "out_of_scope_verb": oos_verb, "corrected": corrected,
        })
    originals = [x["original"] for x in items]
    assert len(set(originals)) == len(originals), "duplicate sentence"

    random.Random(20240613).shuffle(items)
    out = []
    for i, x in enumerate(items, 1):
        out.append({"id": f"HO-{i:03d}", **x})
    return out


def main():
    items = build()
    with OUT.open("w", encoding="utf-8") as f:
        for x in items:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    gold = [x["gold"] for x in items if x["gold"]]
    print(f"wrote {len(items)} items to {OUT}")
    for name, c in [("error_type", Counter(x["error_type"] for x in items)),
                    ("tense", Counter(g["tense"] for g in gold)),
                    ("person", Counter(g["person"] for g in gold)),
                    ("verb", Counter(g["verb"] for g in gold))]:
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in c.most_common()))


if __name__ == "__main__":
    main()
