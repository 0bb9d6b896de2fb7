#!/usr/bin/env python3
"""Generate tests/data/blind.jsonl: 120 blind evaluation sentences labelled by §A13.

A third independent evaluation set, written without looking at the analyser under tutor/ and
with situations, names and vocabulary different from the dev set and the two held-out sets.
Half the items are short textbook-like learner sentences, half look like real learner writing
(chat messages, emails, homework: long sentences, comma splices, lower-case starts, no final
punctuation, Spanish words, typos in other words, several correct verbs of the 20 around the
wrong one, questions, negatives, contractions with ' and ’).

Each sentence has exactly one verb error (none for `correct`) and is labelled by §A13 §5-§6.
The sentences and their gold labels (verb, tense, person, error type, error span) are written
below by hand; the canonical English form, the accepted English and Spanish forms and the
corrected sentence are computed from the §A13 tables imported from make_heldout.py.

Usage:  python tests/data/make_blind.py             (writes blind.jsonl next to this file)
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

OUT = Path(__file__).with_name("blind.jsonl")

# Informal spellings that still contain a form of one of the 20 verbs (for the out-of-scope check).
EXTRA_FORMS = {"wanna", "gonna", "dunno", "lemme", "gotta", "ain't", "aint", "hafta", "gotcha"}

# --------------------------------------------------------------------------------------------
# In scope: (original, verb, tense, person, error_type, error_span).
# Span conventions as in the other sets: a separate "will" belongs to the span ("will comes"),
# a contracted 'll / ’ll does not ("I’ll walked" -> "walked"); "to"/"for" belong to the span of
# an infinitive_form error ("to goes", "for play"); a missing "to" has the bare verb as span;
# for `correct` items the span is the verb as written.

# ---- textbook style: short, capitalised, punctuated
TEXTBOOK = [
    # overregularised_past
    ("The chef eated a spoonful of the sauce and added more salt.", "eat", "past", 3, "overregularised_past", "eated"),
    ("I writed my name on the first page of the notebook.", "write", "past", 1, "overregularised_past", "writed"),
    ("You comed to the gym very early on Monday.", "come", "past", 2, "overregularised_past", "comed"),
    ("My nephew seed a rainbow over the lake.", "see", "past", 3, "overregularised_past", "seed"),
    ("I doed the crossword in ten minutes.", "do", "past", 1, "overregularised_past", "doed"),
    ("The pilot wented back to the cockpit.", "go", "past", 3, "overregularised_past", "wented"),
    # missing_3sg_s
    ("The yoga class start at seven.", "start", "pres", 3, "missing_3sg_s", "start"),
    ("Our coach watch every match on video.", "watch", "pres", 3, "missing_3sg_s", "watch"),
    ("At every check-up the nurse listen to my heart with a cold stethoscope.", "listen", "pres", 3, "missing_3sg_s", "listen"),
    ("My grandmother look very young for her age.", "look", "pres", 3, "missing_3sg_s", "look"),
    ("The postman come at noon every day.", "come", "pres", 3, "missing_3sg_s", "come"),
    ("The baby like the sound of rain.", "like", "pres", 3, "missing_3sg_s", "like"),
    # wrong_3sg
    ("I finishes work at five on Fridays.", "finish", "pres", 1, "wrong_3sg", "finishes"),
    ("You talks to your plants every morning.", "talk", "pres", 2, "wrong_3sg", "talks"),
    ("My sister watchs cooking shows every evening.", "watch", "pres", 3, "wrong_3sg", "watchs"),
    ("I plays tennis with my neighbour on Saturdays.", "play", "pres", 1, "wrong_3sg", "plays"),
    ("The mechanic studys the engine carefully.", "study", "pres", 3, "wrong_3sg", "studys"),
    # wrong_be
    ("The museum were closed last Monday.", "be", "past", 3, "wrong_be", "were"),
    ("I is allergic to peanuts.", "be", "pres", 1, "wrong_be", "is"),
    ("You was the best player in the match yesterday.", "be", "past", 2, "wrong_be", "was"),
    ("My laptop are very slow today.", "be", "pres", 3, "wrong_be", "are"),
    ("Last summer I am a lifeguard at the pool.", "be", "past", 1, "wrong_be", "am"),
    ("Were your flight on time yesterday?", "be", "past", 3, "wrong_be", "Were"),
    # wrong_have
    ("My phone have no battery.", "have", "pres", 3, "wrong_have", "have"),
    ("I has an appointment with the dentist at four.", "have", "pres", 1, "wrong_have", "has"),
    ("You has a huge collection of stamps.", "have", "pres", 2, "wrong_have", "has"),
    ("The kitchen haves a big window.", "have", "pres", 3, "wrong_have", "haves"),
    ("Our school have a new computer lab.", "have", "pres", 3, "wrong_have", "have"),
    # wrong_participle
    ("She has wrote three songs for the festival.", "write", "part", 3, "wrong_participle", "wrote"),
    ("Have you saw the new bridge?", "see", "part", 2, "wrong_participle", "saw"),
    ("The cake was eat before the party started.", "eat", "part", 3, "wrong_participle", "eat"),
    ("I have be to Lisbon twice.", "be", "part", 1, "wrong_participle", "be"),
    ("My uncle has did all the paperwork.", "do", "part", 3, "wrong_participle", "did"),
    ("The project was finish on time.", "finish", "part", 3, "wrong_participle", "finish"),
    # wrong_future
    ("I will walks to the station tomorrow.", "walk", "fut", 1, "wrong_future", "will walks"),
    ("The electrician will comes on Thursday.", "come", "fut", 3, "wrong_future", "will comes"),
    ("You'll saw the lights of the city from the plane.", "see", "fut", 2, "wrong_future", "saw"),
    ("She will to work from home next week.", "work", "fut", 3, "wrong_future", "will to work"),
    ("The beach will is crowded on Sunday.", "be", "fut", 3, "wrong_future", "will is"),
    # infinitive_form
    ("She hopes see the northern lights in Norway.", "see", "inf", 3, "infinitive_form", "see"),
    ("I need a new racket for play in the tournament.", "play", "inf", 1, "infinitive_form", "for play"),
    ("You need to studies more for the driving test.", "study", "inf", 2, "infinitive_form", "to studies"),
    ("My grandfather likes talk about his years in the navy.", "talk", "inf", 3, "infinitive_form", "talk"),
    ("He has to goes to the clinic on Monday.", "go", "inf", 3, "infinitive_form", "to goes"),
    ("I came to the office early for start the inventory.", "start", "inf", 1, "infinitive_form", "for start"),
    # base_for_past
    ("Three days ago I finish the last chapter of the novel.", "finish", "past", 1, "base_for_past", "finish"),
    ("Yesterday my brother go to the stadium alone.", "go", "past", 3, "base_for_past", "go"),
    ("In 2019 you work at a hotel in Cancún, right?", "work", "past", 2, "base_for_past", "work"),
    ("Last month I write a complaint to the airline about my broken suitcase.", "write", "past", 1, "base_for_past", "write"),
    ("This morning the teacher look at my drawing and smiled.", "look", "past", 3, "base_for_past", "look"),
    # correct (a single verb of the 20)
    ("My aunt plays volleyball on Thursdays.", "play", "pres", 3, "correct", "plays"),
    ("I wanted a window seat on the plane.", "want", "past", 1, "correct", "wanted"),
    ("You will walk a lot in Rome.", "walk", "fut", 2, "correct", "will walk"),
    ("The storm started at midnight.", "start", "past", 3, "correct", "started"),
    ("I listen to podcasts in the car.", "listen", "pres", 1, "correct", "listen"),
    ("Your cousin liked the museum in Bogotá.", "like", "past", 3, "correct", "liked"),
]

# ---- real-learner style
REAL = [
    # overregularised_past
    ("omg I eated sooo much at the cena de navidad that I couldnt move, my tia made tamales and pozole and everything", "eat", "past", 1, "overregularised_past", "eated"),
    ("hey Marcos, did you see the score?? our team played horrible, I goed to bed early because I was so angry", "go", "past", 1, "overregularised_past", "goed"),
    ("my little cousin writed a poem for mother’s day and my tía cried when she read it, it was so cute", "write", "past", 3, "overregularised_past", "writed"),
    ("The delivery guy comed at 3 but nobody was home so now I have to go to the post office tomorrow, que flojera", "come", "past", 3, "overregularised_past", "comed"),
    ("you seed the email from HR? they want everyone to do the online training before friday", "see", "past", 2, "overregularised_past", "seed"),
    ("the mechanic doed a terrible job with my car, now the brakes make a strange noise and he doesnt answer my calls", "do", "past", 3, "overregularised_past", "doed"),
    # missing_3sg_s
    ("my physiotherapist want me to walk 30 minutes every day but with this rain it’s imposible", "want", "pres", 3, "missing_3sg_s", "want"),
    ("Ana from accounting always finish her reports before everyone else and then she goes home early, so lucky", "finish", "pres", 3, "missing_3sg_s", "finish"),
    ("the wifi in this hotel work only in the lobby, I can’t even send a whatsapp from my room", "work", "pres", 3, "missing_3sg_s", "work"),
    ("so my son play fútbol every saturday with the school team and I have to drive him at 7 am, imagine", "play", "pres", 3, "missing_3sg_s", "play"),
    ("Hi professor, my daughter Camila do her homework every night but she says that the math exercises are too dificult for her", "do", "pres", 3, "missing_3sg_s", "do"),
    # wrong_3sg
    ("I goes to the gym after work almost every day, but this week I am too tired lol", "go", "pres", 1, "wrong_3sg", "goes"),
    ("you likes spicy food right? there’s a new peruvian place next to my office and they have an amazing ceviche", "like", "pres", 2, "wrong_3sg", "likes"),
    ("my grandma watchs the same telenovela every afternoon and she gets angry if somebody talks during the show", "watch", "pres", 3, "wrong_3sg", "watchs"),
    ("I walks my dog twice a day, in the morning before work and at night, and he is still full of energy", "walk", "pres", 1, "wrong_3sg", "walks"),
    ("Hey, you wants to come with me to the farmers market on sunday? they sell organic eggs and honey", "want", "pres", 2, "wrong_3sg", "wants"),
    ("my son studys in his room with the door closed and the music super loud, I don’t know how he can concentrate", "study", "pres", 3, "wrong_3sg", "studys"),
    # wrong_be
    ("sorry I didnt answer, I were in a meeting with the new client all afternoon and my phone was in my bag", "be", "past", 1, "wrong_be", "were"),
    ("my blood pressure are a little high this month, the doctor wants me to eat less salt and walk more", "be", "pres", 3, "wrong_be", "are"),
    ("you was the only person in the meeting who asked about the budget, everybody else just stayed quiet lol", "be", "past", 2, "wrong_be", "was"),
    ("hey the pool in my building are closed this week for cleaning, so no swimming until monday :(", "be", "pres", 3, "wrong_be", "are"),
    ("Yesterday the traffic in the centro are horrible, I arrived one hour late to my shift at the hospital", "be", "past", 3, "wrong_be", "are"),
    # wrong_have
    ("my boyfriend have a new job in a startup and now he works from home, lucky him", "have", "pres", 3, "wrong_have", "have"),
    ("I has two exams tomorrow and I haven’t studied anything, pray for me", "have", "pres", 1, "wrong_have", "has"),
    ("you has the best laugh in the office jaja, everybody can hear you from the kitchen", "have", "pres", 2, "wrong_have", "has"),
    ("the new apartment haves two bedrooms and a balcony but the kitchen is really small for cooking", "have", "pres", 3, "wrong_have", "haves"),
    ("Dr. Ruiz have appointments only on tuesdays and thursdays, so I’ll write to the clinic to ask for another day", "have", "pres", 3, "wrong_have", "have"),
    # wrong_participle
    ("I have saw that movie like five times and I still cry at the end", "see", "part", 1, "wrong_participle", "saw"),
    ("has the new intern came to the office yet? the boss is asking for him and nobody knows where he is", "come", "part", 3, "wrong_participle", "came"),
    ("the menu was write in english and french so my dad couldn’t understand anything jaja", "write", "part", 3, "wrong_participle", "write"),
    ("I’ve went to that beach a lot of times, the water is always freezing even in january", "go", "part", 1, "wrong_participle", "went"),
    ("my son has eat nothing since yesterday, he says his stomach hurts, should I take him to the doctor??", "eat", "part", 3, "wrong_participle", "eat"),
    ("have you ever walk the Camino de Santiago? my cousin did it last summer and she says it changed her life", "walk", "part", 2, "wrong_participle", "walk"),
    # wrong_future
    ("don’t worry about the dog, I’ll walked him tomorrow morning before my class", "walk", "fut", 1, "wrong_future", "walked"),
    ("according to the app the bus will comes in 5 min but I’ve been here for 20 min already", "come", "fut", 3, "wrong_future", "will comes"),
    ("Will you watched the final with us on sunday? we will make a big asado at my uncle’s house", "watch", "fut", 2, "wrong_future", "watched"),
    ("tonight I will eats with my girlfriend’s parents for the first time, I’m so nervous", "eat", "fut", 1, "wrong_future", "will eats"),
    ("Tranquilo, the technician will to look at your laptop tomorrow and he will call you", "look", "fut", 3, "wrong_future", "will to look"),
    ("I promise I'll studied harder for the next exam, this time I’ll do all the exercises", "study", "fut", 1, "wrong_future", "studied"),
    # infinitive_form
    ("I’m saving every peso for go to Japan next spring, my dream is to see the cherry blossoms in Kyoto", "go", "inf", 1, "infinitive_form", "for go"),
    ("Do you want eat something before the movie? the popcorn in that cinema is sooo expensive", "eat", "inf", 2, "infinitive_form", "eat"),
    ("my english teacher told me that I have to listens to more podcasts if I want to improve my accent", "listen", "inf", 1, "infinitive_form", "to listens"),
    ("ok so my sister has to works on saturday so the party is on sunday now, tell everybody pls", "work", "inf", 3, "infinitive_form", "to works"),
    ("I decided write an email to the landlord about the noise upstairs, it continues every night until 2am", "write", "inf", 1, "infinitive_form", "write"),
    # base_for_past
    ("last saturday I talk with my neighbour about the parking and he promised to move his truck this week but nothing yet", "talk", "past", 1, "base_for_past", "talk"),
    ("Yesterday my manager have a meeting with the whole team and announced that there will be changes", "have", "past", 3, "base_for_past", "have"),
    ("when I was in high school I play in a rock band, we were terrible jaja but it was so fun", "play", "past", 1, "base_for_past", "play"),
    ("Two weeks ago my daughter start kindergarten and she cried every morning the first days", "start", "past", 3, "base_for_past", "start"),
    ("hola teacher, last night I study until midnight for the quiz but I still dont understand the present perfect", "study", "past", 1, "base_for_past", "study"),
    ("did you see what happened at the game? in the second half the goalkeeper come out of the area and the other team scored", "come", "past", 3, "base_for_past", "come"),
    # correct (a single verb of the 20)
    ("ok so tonight on the bus I will listen to the demo of your band, then I can send you my opinion", "listen", "fut", 1, "correct", "will listen"),
    ("my grandpa from Oaxaca, almost 90 years old, walks three kilometres every morning with his cane", "walk", "pres", 3, "correct", "walks"),
    ("last night I watched the eclipse from the roof with my neighbours, with blankets, hot chocolate and a cheap telescope", "watch", "past", 1, "correct", "watched"),
    ("you wrote a beautiful speech for the wedding, everybody cried, even the waiters jaja", "write", "past", 2, "correct", "wrote"),
    ("sorry for the delay, the plumber came really late and then the internet died too, what a day", "come", "past", 3, "correct", "came"),
    ("you study every night after your shift at the hospital, I admire you so much amiga", "study", "pres", 2, "correct", "study"),
]

IN_SCOPE = TEXTBOOK + REAL

# Out of scope: (original, out_of_scope_verb, error_span, corrected). No form of the 20 verbs.
OUT_OF_SCOPE = [
    ("My son swimmed across the pool without help.", "swim", "swimmed",
     "My son swam across the pool without help."),
    ("The waiter bringed us the menu.", "bring", "bringed", "The waiter brought us the menu."),
    ("Our team winned the final on penalties.", "win", "winned", "Our team won the final on penalties."),
    ("The nurse speak three languages.", "speak", "speak", "The nurse speaks three languages."),
    ("I losed my wallet in the taxi and the driver never answered the phone, so I cancelled all my cards", "lose", "losed",
     "I lost my wallet in the taxi and the driver never answered the phone, so I cancelled all my cards"),
    ("my brother drinked three energy drinks before the exam and then he couldn’t sleep for two days lol", "drink", "drinked",
     "my brother drank three energy drinks before the exam and then he couldn’t sleep for two days lol"),
    ("yesterday the dentist telled me that I need braces, at 35!! can you believe it", "tell", "telled",
     "yesterday the dentist told me that I need braces, at 35!! can you believe it"),
    ("Tomorrow I will sended you the photos from the trip, my phone memory ran out", "send", "will sended",
     "Tomorrow I will send you the photos from the trip, my phone memory ran out"),
]
N_TEXTBOOK_OOS = 4  # the first four out-of-scope items are textbook style


def span_hits(original, span):
    return len(re.findall(r"(?<![\w'’])" + re.escape(span) + r"(?![\w'’])", original))


def build():
    forms = ALL_FORMS | EXTRA_FORMS
    items = []
    for original, verb, t, p, etype, span in IN_SCOPE:
        assert verb in VERBS and t in TENSES and p in PERSONS, original
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
                replacement = canonical[len("will "):]      # "I’ll walked" -> "I’ll walk"
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
    assert len(items) == 120

    random.Random(20240901).shuffle(items)
    return [{"id": f"BL-{i:03d}", **x} for i, x in enumerate(items, 1)]


def main():
    items = build()
    with OUT.open("w", encoding="utf-8") as f:
        for x in items:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    gold = [x["gold"] for x in items if x["gold"]]
    print(f"wrote {len(items)} items to {OUT}")
    print(f"style: textbook {len(TEXTBOOK) + N_TEXTBOOK_OOS}, "
          f"real {len(REAL) + len(OUT_OF_SCOPE) - N_TEXTBOOK_OOS}")
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
