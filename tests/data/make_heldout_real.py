#!/usr/bin/env python3
"""Generate tests/data/heldout_real.jsonl: 150 held-out sentences in the style of real learners.

A second independent held-out set for §A13, written to look like what Spanish-speaking learners
actually type in chats, forum posts, homework and emails: longer sentences, run-ons and comma
splices, lower-case starts, missing punctuation, typos in other words, Spanish words mixed in,
informal openers, direct speech, questions, negatives, both ' and ’ in contractions, subjects far
from their verb, relative clauses, and several correct verbs of the 20 around the one wrong verb.

Each sentence has exactly one verb error (none for `correct`) and is labelled by §A13 §5-§6.
The sentences and their gold labels (verb, tense, person, error type, error span) are written
below by hand; the canonical English form, the accepted English and Spanish forms and the
corrected sentence are computed from the §A13 tables, which are imported from make_heldout.py
(the first held-out set's script) so both sets share one copy of §3-§4. The set was written
without looking at the analyser under tutor/.

Usage:  python tests/data/make_heldout_real.py       (writes heldout_real.jsonl next to this file)
"""
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_heldout import (
    ALL_FORMS,
    PERSONS,
    TENSES,
    VERBS,
    corrected_sentence,
    english_forms,
    spanish_forms,
    tokens,
)

OUT = Path(__file__).with_name("heldout_real.jsonl")

# Informal spellings that still contain a form of one of the 20 verbs (for the out-of-scope check).
EXTRA_FORMS = {"wanna", "gonna", "dunno", "lemme", "gotta", "ain't", "aint", "hafta", "gotcha"}

# --------------------------------------------------------------------------------------------
# In scope: (original, verb, tense, person, error_type, error_span).
# Span conventions as in the dev set and heldout.jsonl: a separate "will" belongs to the span
# ("will goes"), a contracted 'll / ’ll does not ("I’ll wrote" -> "wrote"); "to"/"for" belong
# to the span of an infinitive_form error ("to goes", "for study"); a missing "to" has the bare
# verb as span; for `correct` items the span is the verb as written.
IN_SCOPE = [
    # ---- overregularised_past: -ed on an irregular past, or a double-marked past
    ("ok so yesterday I goed to the centro comercial with mi mamá because she wanted new shoes, and we spent almost three hours there jaja", "go", "past", 1, "overregularised_past", "goed"),
    ("My best friend from the university, the one who lives in Quito now, comed to visit me last month and we visited all the museums in Lima", "come", "past", 3, "overregularised_past", "comed"),
    ("I seed your message too late sorry!! my phone was dead all afternoon and I didn’t have the charger with me", "see", "past", 1, "overregularised_past", "seed"),
    ("did you know that my abuelo writed a letter to the president in 1985? he still keeps a copy in his desk", "write", "past", 3, "overregularised_past", "writed"),
    ("You eated the last empanada, don't lie to me, I saw you in the kitchen at midnight jaja", "eat", "past", 2, "overregularised_past", "eated"),
    ("well the thing is that she doed all the work for the group project and the other guys just put their names on it", "do", "past", 3, "overregularised_past", "doed"),
    ("When I was a kid I haved a dog called Chispa, he was the best dog in the whole barrio", "have", "past", 1, "overregularised_past", "haved"),
    ("The profe wented out of the classroom for five minutes and everybody started to shout and throw papers", "go", "past", 3, "overregularised_past", "wented"),
    ("my sister camed home realy late on saturday and mi papá was waiting for her in the living room, she was in big trouble", "come", "past", 3, "overregularised_past", "camed"),
    ("I wroted three emails to the university about my scholarship but nobody answered me, what can I do??", "write", "past", 1, "overregularised_past", "wroted"),
    ("Last year you goed to Cartagena, no? how was the weather there in december", "go", "past", 2, "overregularised_past", "goed"),
    ("pues I think my dog eated one of my socks this morning becuase now I can’t find it anywhere and he looks sick", "eat", "past", 3, "overregularised_past", "eated"),
    ("Yesterday you doed a great job in the presentation, the teacher was really impressed with you and so was I", "do", "past", 2, "overregularised_past", "doed"),

    # ---- missing_3sg_s: base form with a 3rd-singular subject in the present
    ("my best friend from the university, who lives in Quito, work in a bank now and she hates it", "work", "pres", 3, "missing_3sg_s", "work"),
    ("Every morning mi abuela listen to the radio while she cooks for everybody in the house", "listen", "pres", 3, "missing_3sg_s", "listen"),
    ("ok so the movie start at 8:15 and the tickets are already bought, please don’t be late this time", "start", "pres", 3, "missing_3sg_s", "start"),
    ("My little brother, who is only in first grade, already watch YouTube videos in English and he understands everything", "watch", "pres", 3, "missing_3sg_s", "watch"),
    ("Mi papá always says that I'm a chatterbox, but honestly he talk more than anybody in the family jaja", "talk", "pres", 3, "missing_3sg_s", "talk"),
    ("This soup look delicious!! did you make it or did you buy it in the mercado?", "look", "pres", 3, "missing_3sg_s", "look"),
    ("the teacher of my daughter want to see me on friday, I don’t know what she did this time", "want", "pres", 3, "missing_3sg_s", "want"),
    ("My roommate never finish his food and then the kitchen smells horible, what should I tell him?", "finish", "pres", 3, "missing_3sg_s", "finish"),
    ("Everybody in my family like the beach but I prefer the mountains because I hate the sun", "like", "pres", 3, "missing_3sg_s", "like"),
    ("sometimes my neighbour play the piano at 2 am and I can't sleep, it's a nightmare", "play", "pres", 3, "missing_3sg_s", "play"),
    ("Juan study medicine in la universidad de Buenos Aires and he almost never has free time", "study", "pres", 3, "missing_3sg_s", "study"),
    ("My cousin, the one that lives in Madrid with her husband, walk to the office every day because the metro is too crowded", "walk", "pres", 3, "missing_3sg_s", "walk"),
    ("She go to mass every sunday with her grandmother, but she says she doesn’t believe in anything", "go", "pres", 3, "missing_3sg_s", "go"),
    ("in my office the manager come at 10 but he wants us there at 8, it’s not fair!!", "come", "pres", 3, "missing_3sg_s", "come"),
    ("my mom write me a long message every single morning, with a lot of emojis and prayers", "write", "pres", 3, "missing_3sg_s", "write"),

    # ---- wrong_3sg: -s form with I / you, or a misspelled 3rd-singular form
    ("I wants to study in Canada next year but my parents say it’s too expensive", "want", "pres", 1, "wrong_3sg", "wants"),
    ("you looks really tired today amiga, did you sleep ok last night or were you studying again until 3am?", "look", "pres", 2, "wrong_3sg", "looks"),
    ("Honestly I likes my new job, the people are nice and the salary isn't bad", "like", "pres", 1, "wrong_3sg", "likes"),
    ("wow you plays the guitar so well!! who taught you? I tried to learn with youtube videos last year but my fingers hurt too much and I stopped", "play", "pres", 2, "wrong_3sg", "plays"),
    ("my brother studys every night until 1am and in the morning he looks like a zombie", "study", "pres", 3, "wrong_3sg", "studys"),
    ("Every time it rains my dog watchs the street from the window and cries", "watch", "pres", 3, "wrong_3sg", "watchs"),
    ("The class finishs at six but the profesor always keeps us until 6:30, so I miss my bus", "finish", "pres", 3, "wrong_3sg", "finishs"),
    ("I eats a lot of fruit because mi nutricionista says it’s good for my skin", "eat", "pres", 1, "wrong_3sg", "eats"),
    ("wait, you comes from Mexico too?? what a coincidence, my husband is from Puebla and we go there every christmas, wich city are you from?", "come", "pres", 2, "wrong_3sg", "comes"),
    ("when I get nervous I writes everything in a notebook, it helps me a lot", "write", "pres", 1, "wrong_3sg", "writes"),
    ("You works too much amiga, you need a vacation in the beach with a cocktail and no phone, seriously", "work", "pres", 2, "wrong_3sg", "works"),
    ("I sees my grandparents almost every sunday because they live very close to my apartment", "see", "pres", 1, "wrong_3sg", "sees"),
    ("every weekend Pablo gos fishing with his uncle in the river near the farm", "go", "pres", 3, "wrong_3sg", "gos"),
    ("You talks very fast, can you repeat more slowly please? I'm still learning", "talk", "pres", 2, "wrong_3sg", "talks"),

    # ---- wrong_be: wrong form of be in the present or past simple (incl. wrong tense of be)
    ("yesterday I am so tired after the test that I slept twelve hours straight", "be", "past", 1, "wrong_be", "am"),
    ("You was right about that restaurant, the food tasted horrible and we waited one hour for the bill", "be", "past", 2, "wrong_be", "was"),
    ("Sorry I is not sure what page the profe wants for tomorrow, can you send me a photo?", "be", "pres", 1, "wrong_be", "is"),
    ("My sister are a nurse in a hospital in Guayaquil and she works night shifts", "be", "pres", 3, "wrong_be", "are"),
    ("you was at the party last night? I didn’t see you!! I stayed there until 2 with Camila and her brother", "be", "past", 2, "wrong_be", "was"),
    ("I were very happy when I heard the news about your baby, felicidades!!", "be", "past", 1, "wrong_be", "were"),
    ("The wifi in my house were terrible yesterday so I couldn't send the homework on time", "be", "past", 3, "wrong_be", "were"),
    ("where was you when I called?? I tried three times and your mom didn’t know either", "be", "past", 2, "wrong_be", "was"),
    ("Bad Bunny?? He are my favorite singer, I know all his songs by heart and I went to his concert in San Juan last year", "be", "pres", 3, "wrong_be", "are"),
    ("Last week the weather is horrible in Bogotá, it rained every day and my shoes never dried", "be", "past", 3, "wrong_be", "is"),
    ("I are so excited for the concert on saturday, I can't believe it!!! I bought the tickets in february", "be", "pres", 1, "wrong_be", "are"),
    ("then the profe looked at me and said “Martínez, you is late again” and everybody laughed", "be", "pres", 2, "wrong_be", "is"),
    ("my mom were a teacher in a public school for 30 years before she retired, and her old students still visit her every christmas", "be", "past", 3, "wrong_be", "were"),
    ("the final exam of calculus be really difficult yesterday, I think I failed, I only answered four questions out of ten", "be", "past", 3, "wrong_be", "be"),
    ("everybody are very friendly in my new school and the teachers help me a lot", "be", "pres", 3, "wrong_be", "are"),

    # ---- wrong_have: wrong present-simple form of have
    ("My brother have a motorcycle but he never lets me ride it, he says I’m too young", "have", "pres", 3, "wrong_have", "have"),
    ("I has two cats and one of them hates my boyfriend jaja, every time he comes to my house she hides under the bed", "have", "pres", 1, "wrong_have", "has"),
    ("you has a very nice accent, where did you learn English? in the movies or in a school? I want to sound like you someday", "have", "pres", 2, "wrong_have", "has"),
    ("This phone haves a really good camera, I bought it last month in a sale", "have", "pres", 3, "wrong_have", "haves"),
    ("The hotel have a pool and a gym, but the breakfast isn't included in the price", "have", "pres", 3, "wrong_have", "have"),
    ("mi abuela have 12 grandchildren and 5 great-grandchildren and she remembers every single birthday without a calendar, incredible no?", "have", "pres", 3, "wrong_have", "have"),
    ("I haves a question about the essay, is it ok if I write about my country?", "have", "pres", 1, "wrong_have", "haves"),
    ("Our english teacher have a lot of patience with me, I don’t know how, I ask the same question about five times every class", "have", "pres", 3, "wrong_have", "have"),
    ("Your city have beautiful beaches, I want to go back next year with my girlfriend", "have", "pres", 3, "wrong_have", "have"),
    ("hey you has my charger, right? I can’t find it anywhere in the apartment and my phone is almost dead, pls answer", "have", "pres", 2, "wrong_have", "has"),
    ("The new teacher is nice and she have a funny accent from Argentina, she says “vos” instead of “tú” and at first I didn’t understand anything", "have", "pres", 3, "wrong_have", "have"),

    # ---- wrong_participle: wrong form after have/has/had or in a passive
    ("The girl who sits next to me in chemistry has wrote a whole novel, can you believe it? she wants to publish it next year", "write", "part", 3, "wrong_participle", "wrote"),
    ("Have you ever eat cuy? it’s a typical dish from Peru and Ecuador", "eat", "part", 2, "wrong_participle", "eat"),
    ("The report was finish by my boss at the last minute, as always, and of course she blamed us for the mistakes", "finish", "part", 3, "wrong_participle", "finish"),
    ("I’ve never see snow in my life so I’m super excited about the trip to Chile", "see", "part", 1, "wrong_participle", "see"),
    ("My dad has work in the same company for twenty years and he never takes vacations", "work", "part", 3, "wrong_participle", "work"),
    ("Sorry, I haven’t listen to your audio yet, I was in class all morning", "listen", "part", 1, "wrong_participle", "listen"),
    ("Have you ever play padel? it's very popular in Spain now, my uncle goes to the club every weekend with his freinds from the office", "play", "part", 2, "wrong_participle", "play"),
    ("the construction of the new library was start in 2019 and it still isn’t finished", "start", "part", 3, "wrong_participle", "start"),
    ("she has always want a dog, so for her birthday we surprised her with a puppy", "want", "part", 3, "wrong_participle", "want"),
    ("I had never talk with a native speaker before I came to London to study, and the first week I understood nothing", "talk", "part", 1, "wrong_participle", "talk"),
    ("Has your brother came back from the army? mi tía told me he was in Colombia", "come", "part", 3, "wrong_participle", "came"),
    ("Have you did the exercises of page 45? I don’t understand the third one", "do", "part", 2, "wrong_participle", "did"),
    ("Have you watch the last season of that show? don't tell me the ending please", "watch", "part", 2, "wrong_participle", "watch"),
    ("I’ve always like spicy food, since I was a little girl in Oaxaca my abuela put chile in everything", "like", "part", 1, "wrong_participle", "like"),
    ("I have study english for six years and I still can't understand movies without subtitles", "study", "part", 1, "wrong_participle", "study"),

    # ---- wrong_future: wrong form after will / 'll
    ("don’t worry mamá, I’ll wrote you a message when the plane lands in Madrid", "write", "fut", 1, "wrong_future", "wrote"),
    ("my dad said “if you pass all your exams you will goes to Disney with your cousins”", "go", "fut", 2, "wrong_future", "will goes"),
    ("the coordinator sent an email to all the parents: tomorrow the new teacher will starts at 8 so please don’t be late", "start", "fut", 3, "wrong_future", "will starts"),
    ("I promise you will to eat the best tacos of your life in my city", "eat", "fut", 2, "wrong_future", "will to eat"),
    ("Do you think you’ll came to the wedding in October? we need to know the number of guests", "come", "fut", 2, "wrong_future", "came"),
    ("The match will is at 9 pm our time, so we can watch it together", "be", "fut", 3, "wrong_future", "will is"),
    ("ok so my manager says he will looks at my contract again tomorow morning", "look", "fut", 3, "wrong_future", "will looks"),
    ("When I finish the university I will worked in my father’s company for a couple of years, and after that I want to travel", "work", "fut", 1, "wrong_future", "will worked"),
    ("Will you studies with me for the final on thursday? I'll bring snacks and coffee, and my notes are pretty complete", "study", "fut", 2, "wrong_future", "studies"),
    ("She will finishes her degree in june and then she wants to travel around Asia", "finish", "fut", 3, "wrong_future", "will finishes"),
    ("relax, nobody will listens to your audio, I deleted it from the group", "listen", "fut", 3, "wrong_future", "will listens"),
    ("don’t worry, your mom will likes the present, she loves anything with flowers", "like", "fut", 3, "wrong_future", "will likes"),
    ("you will walked a lot in Cusco, so bring comfortable shoes and a jacket", "walk", "fut", 2, "wrong_future", "will walked"),
    ("Tomorrow you’ll plays against the best team of the league, are you nervous?", "play", "fut", 2, "wrong_future", "plays"),

    # ---- infinitive_form: missing to, to + inflected form, for + verb
    ("I came to this country for study english and now I work as a translator", "study", "inf", 1, "infinitive_form", "for study"),
    ("my roommate Lucía needs finish the project before monday or the professor will fail her, so she’s working day and night", "finish", "inf", 3, "infinitive_form", "finish"),
    ("my little brother wants to goes with us to the concert but mi mamá says no", "go", "inf", 3, "infinitive_form", "to goes"),
    ("omg I really want watch that movie, everybody in my class says it’s amazing and the ending is super sad, do you want to come with me on friday??", "watch", "inf", 1, "infinitive_form", "watch"),
    ("My cousin moved to Miami for play baseball in a professional team, now he lives there with his girlfriend and he is very happy", "play", "inf", 3, "infinitive_form", "for play"),
    ("for the english class I decided to wrote my essay about the history of my town, because nobody knows that it was founded by pirates", "write", "inf", 1, "infinitive_form", "to wrote"),
    ("Do you want to came with us to the beach on saturday? we have space in the car", "come", "inf", 2, "infinitive_form", "to came"),
    ("my classmate Diego always forgets to does his homework and then he copies mine in the bus, I’m so tired of him", "do", "inf", 3, "infinitive_form", "to does"),
    ("I like walk in the park near my house at night when the city is quiet and the streets are empty", "walk", "inf", 1, "infinitive_form", "walk"),
    ("mijo you have to eats more vegetables, you only eat pizza and burgers and then you complain that you feel tired all the time", "eat", "inf", 2, "infinitive_form", "to eats"),
    ("My sister tried to looks calm during the job interview, but her hands were shaking and she forgot the name of the company jaja", "look", "inf", 3, "infinitive_form", "to looks"),
    ("I went to the library for listen to the audiobooks because my headphones are broken", "listen", "inf", 1, "infinitive_form", "for listen"),
    ("my friend Carlos from the gym is saving every peso for start his own business next year, a small cafe near la universidad", "start", "inf", 3, "infinitive_form", "for start"),
    ("My grandmother loves to talked about her childhood in the campo, the horses, the river, the dances, she could talk for hours", "talk", "inf", 3, "infinitive_form", "to talked"),

    # ---- base_for_past: base form in a clearly past context
    ("Last night I watch a documentary about the Amazon and now I want to go there", "watch", "past", 1, "base_for_past", "watch"),
    ("Yesterday my boss talk to me about a promotion after the meeting, I’m so happy!! I didn’t tell anybody yet, not even my husband", "talk", "past", 3, "base_for_past", "talk"),
    ("In 2018 I go to Spain with my family and we visited Barcelona and Sevilla", "go", "past", 1, "base_for_past", "go"),
    ("yesterday I see your brother in the supermarket, he looks different with short hair", "see", "past", 1, "base_for_past", "see"),
    ("last summer you work in a hotel in Punta Cana, right? how was it, my cousin wants to apply there and she has a lot of questions", "work", "past", 2, "base_for_past", "work"),
    ("finally!! Last week I finish all my exams and now I'm free until august, so I can sleep and watch series all day", "finish", "past", 1, "base_for_past", "finish"),
    ("Yesterday the class start late because the teacher lost the keys of the classroom", "start", "past", 3, "base_for_past", "start"),
    ("Last year I have a really bad boss but now I love my job", "have", "past", 1, "base_for_past", "have"),
    ("two days ago you write me that you were sick, are you better now?", "write", "past", 2, "base_for_past", "write"),
    ("Last weekend I study all day for the TOEFL, from 8 am to 10 pm, and my eyes still hurt today", "study", "past", 1, "base_for_past", "study"),
    ("Yesterday she do all the cleaning by herself because her roommates were on vacation", "do", "past", 3, "base_for_past", "do"),
    ("At the party last friday you look really beatiful in that red dress, everybody was asking me who you were jaja", "look", "past", 2, "base_for_past", "look"),
    ("Last night at the restaurant my boyfriend like the fish so much that he ordered another one", "like", "past", 3, "base_for_past", "like"),
    ("Last month my son want a new bike for his birthday and we bought it", "want", "past", 3, "base_for_past", "want"),

    # ---- correct: no verb error; a single verb (or will + verb), labelled as written
    ("so every saturday morning mi abuela from Cuenca, with her little radio and a cup of coffee, listens to the news in Spanish", "listen", "pres", 3, "correct", "listens"),
    ("My best friend from the university, the one from Quito with the curly hair, works in a bank downtown now", "work", "pres", 3, "correct", "works"),
    ("last night after the party I walked home alone in the rain, without an umbrella", "walk", "past", 1, "correct", "walked"),
    ("ok so tomorrow at 7 I will study for the exam at la biblioteca with Sofi", "study", "fut", 1, "correct", "will study"),
    ("Pues you eat a lot of bread for a person on a diet jaja", "eat", "pres", 2, "correct", "eat"),
    ("well, in 2015 my dad wrote a small book about the birds of Costa Rica", "write", "past", 3, "correct", "wrote"),
    ("You will see the ocean from the window of your room, te lo prometo", "see", "fut", 2, "correct", "will see"),
    ("I always go to the mercado on sundays with mi mamá for fresh fruit and vegetables", "go", "pres", 1, "correct", "go"),
    ("Every night before bed my little sister watches cartoons on the tablet of my mom", "watch", "pres", 3, "correct", "watches"),
    ("Attention everybody: the concert at the stadium will start at nine, not at eight, because of the rain", "start", "fut", 3, "correct", "will start"),
    ("my roommate from Chile, Martina, plays the guitar in a band on weekends", "play", "pres", 3, "correct", "plays"),
    ("After three years of effort, my brother finally finished his thesis in december", "finish", "past", 3, "correct", "finished"),
    ("Sorry for the late answer, yesterday I was at the hospital with mi abuela all morning, from eight until almost one", "be", "past", 1, "correct", "was"),
    ("my sister Valeria in Monterrey has three kids, two cats and a very old dog", "have", "pres", 3, "correct", "has"),
    ("After the big family dinner on sunday my uncle did all the dishes alone", "do", "past", 3, "correct", "did"),
]

# Out of scope: (original, out_of_scope_verb, error_span, corrected). No form of the 20 verbs.
OUT_OF_SCOPE = [
    ("yesterday mi tía teached me how to make arepas but mine tasted horrible and the kitchen smelled of smoke all night jaja", "teach", "teached",
     "yesterday mi tía taught me how to make arepas but mine tasted horrible and the kitchen smelled of smoke all night jaja"),
    ("I buyed a new laptop for la universidad with the money from my summer job but the battery already died", "buy", "buyed",
     "I bought a new laptop for la universidad with the money from my summer job but the battery already died"),
    ("My neighbour sing very loud in the shower every morning at six, so I never need an alarm", "sing", "sing",
     "My neighbour sings very loud in the shower every morning at six, so I never need an alarm"),
    ("ok so I forgetted my keys inside the car again and my dad got so angry with me", "forget", "forgetted",
     "ok so I forgot my keys inside the car again and my dad got so angry with me"),
    ("Tomorrow I will called the bank because they charged me twice for the same thing", "call", "will called",
     "Tomorrow I will call the bank because they charged me twice for the same thing"),
    ("the baby of my cousin sleeped the whole night for the first time and my cousin cried from happiness", "sleep", "sleeped",
     "the baby of my cousin slept the whole night for the first time and my cousin cried from happiness"),
    ("My brother think that Messi deserves every award in the world but honestly I disagree", "think", "think",
     "My brother thinks that Messi deserves every award in the world but honestly I disagree"),
    ("pues when the teacher asked us a question about the French revolution, nobody knowed the answer", "know", "knowed",
     "pues when the teacher asked us a question about the French revolution, nobody knew the answer"),
    ("Sorry for the delay, I catched a cold on the trip to Bariloche and stayed in bed three days", "catch", "catched",
     "Sorry for the delay, I caught a cold on the trip to Bariloche and stayed in bed three days"),
    ("my cat falled from the balcony on the second floor but she landed ok, gracias a Dios", "fall", "falled",
     "my cat fell from the balcony on the second floor but she landed ok, gracias a Dios"),
]


def span_hits(original, span):
    return len(re.findall(r"(?<![\w'’])" + re.escape(span) + r"(?![\w'’])", original))


def build():
    forms = ALL_FORMS | EXTRA_FORMS
    items = []
    for original, verb, t, p, etype, span in IN_SCOPE:
        assert verb in VERBS and t in TENSES and p in PERSONS, original
        # the span occurs exactly once, both as a word and as a plain substring
        assert span_hits(original, span) == 1 and original.count(span) == 1, (original, span)
        cf_acc = english_forms(verb, t, p)
        es_acc = spanish_forms(verb, t, p)
        canonical = cf_acc[0]
        if etype == "correct":
            assert span.lower() == canonical, (original, span, canonical)
            others = [w for w in tokens(original) if w in forms]
            assert others == span.lower().split()[-1:], (original, others)
            corrected = original
        else:
            assert span.lower() != canonical, (original, span)
            replacement = canonical
            if t == "fut" and not span.lower().startswith("will"):
                replacement = canonical[len("will "):]      # "I’ll wrote" -> "I’ll write"
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
        bad = [w for w in tokens(original) + tokens(corrected) if w in forms]
        assert not bad, (original, bad)
        assert oos_verb not in VERBS
        assert span_hits(original, span) == 1 and original.count(span) == 1, (original, span)
        items.append({
            "original": original, "gold": None, "correct_form_accepted": [],
            "spanish_accepted": [], "error_type": "out_of_scope", "error_span": span,
            "out_of_scope_verb": oos_verb, "corrected": corrected,
        })
    originals = [x["original"] for x in items]
    assert len(set(originals)) == len(originals), "duplicate sentence"

    random.Random(20240721).shuffle(items)
    return [{"id": f"HR-{i:03d}", **x} for i, x in enumerate(items, 1)]


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
    words = [len(x["original"].split()) for x in items]
    print(f"words per sentence: min {min(words)}, median {sorted(words)[len(words) // 2]}, "
          f"max {max(words)}")


if __name__ == "__main__":
    main()
