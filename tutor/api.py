"""The tutor's front door: load a model once, then correct sentences and check texts.

`Tutor.correct` checks the input, then composes the three stages: the Analyser proposes a slot of
candidates per verb (tutor.analyser), the Judge ranks them with the model and the fitted weights and
picks the answer (tutor.judge.judge), the AnswerDecoder writes it under the precompiled a13 FSM
(tutor.answer); the result carries its explanation, confidence and timings. `Tutor.check` walks a
text sentence by sentence through the first two stages (tutor.text.walk).
"""

from __future__ import annotations

import copy
import json
import logging
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tutor.a13.analysis import Analysis
from tutor.a13.explain import explain_abstention, explain_candidate
from tutor.analyser import Analyser
from tutor.analyser import prepare as prepare_analyser
from tutor.answer import AnswerDecoder
from tutor.catalogue import ModelFile, resolve
from tutor.errors import InputError
from tutor.judge.in_turn import judge_in_turn
from tutor.judge.judge import Calibration, Judge
from tutor.judge.result import Judged
from tutor.judge.veto import Veto, load_veto
from tutor.limits import MAX_SENTENCE_CHARS, MAX_TEXT_CHARS
from tutor.output_contract import reported_confidence, validate_output
from tutor.result import OUTSIDE_VERBS, PLURAL_SUBJECT, CorrectionResult, Timings
from tutor.text.check import Checked, CheckResult, Finding
from tutor.text.sentences import split_sentences
from tutor.text.walk import walk_text

WARM_UP_SENTENCE = "My friend go to school by bus every day."  # any sentence with a verb slot to judge

@dataclass(frozen=True)
class Settings:
    """Switches for each idea of the pipeline (all on by default), kept with every correction.

    The Tutor honours temperature, seed, jump_forward, use_model and lm_context (and private_fields for the
    prompt it warms up); facts, priors, private_fields, spanish_choice, table, pin_original and max_tokens
    switch the plain paths kept for comparison, which tutor.lab.ablations runs.
    """

    temperature: float = 0.0
    seed: int | None = None
    facts: bool = True  # narrow the answers with the sentence's facts (slot, subject, wrong word)
    priors: bool = True  # weight the answers by the sentence's evidence (time words, doubtful words)
    private_fields: bool = True  # the model writes the word as written before the answer
    spanish_choice: bool = False  # the model picks among the accepted Spanish forms (off: canonical form)
    jump_forward: bool = True
    table: bool = True  # correct_form and spanish follow the chosen cell (off: the plain JSON Schema FSM)
    pin_original: bool = True  # `original` is forced to the learner's sentence
    use_model: bool = True  # the model judges each candidate in context (off: the analyser's evidence alone)
    # what the model reads before a text's sentence (see tutor.text.walk.LM_CONTEXTS): "sentence", the one
    # before it as corrected (what the judge's weights are fitted on); "paragraph" or "text", the paragraph
    # or the whole text so far, each read once (an experiment for speed, issue 21)
    lm_context: str = "sentence"
    max_tokens: int = 160
    # a second, larger model that must prefer each finding's correction by a fitted margin (tutor.judge.veto):
    # a catalogue name or GGUF path, None for none (the default); veto_margin replaces the fitted margin
    veto_model: str | None = None
    veto_margin: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as a plain dict (stored with each correction)."""
        return asdict(self)


def check_sentence(sentence: object) -> str:
    """Return the sentence stripped, or raise InputError with a message a learner can act on."""
    if not isinstance(sentence, str):
        raise InputError("the sentence must be text")
    text = sentence.strip()
    if not text:
        raise InputError("the sentence is empty: type one English sentence to correct")
    if len(text) > MAX_SENTENCE_CHARS:
        raise InputError(
            f"the sentence is {len(text)} characters long; the tutor corrects one sentence of at most"
            f" {MAX_SENTENCE_CHARS} characters. Shorten it or split it into several sentences."
        )
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\t"]
    if bad:
        raise InputError(
            f"the sentence contains a control or unassigned character (U+{ord(bad[0]):04X}); remove it and try again"
        )
    refuse_invisible(text, "sentence")
    if not any(c.isalpha() for c in text):
        raise InputError("the sentence has no words: type one English sentence to correct")
    return text


def check_text(text: object) -> str:
    """Return a text to check (up to 2,000 characters), or raise InputError saying what to change."""
    if not isinstance(text, str):
        raise InputError("the text must be a string")
    if not text.strip():
        raise InputError("the text is empty: type or paste some English to check")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"the text is {len(text):,} characters long; the checker takes up to {MAX_TEXT_CHARS:,} characters"
            " at a time. Split it into parts and check each one — nothing was cut.")
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\t\n\r"]
    if bad:
        raise InputError(
            f"the text contains a control or unassigned character (U+{ord(bad[0]):04X}); remove it and try again")
    refuse_invisible(text, "text")
    if not any(c.isalpha() for c in text):
        raise InputError("the text has no words: type or paste some English to check")
    return text


def refuse_invisible(text: str, what: str) -> None:
    """Raise InputError for invisible format characters (bidi overrides, zero-width spaces, a BOM) that
    would hide or reorder what the learner sees; a zero-width joiner inside an emoji sequence is fine."""
    for k, c in enumerate(text):
        if unicodedata.category(c) != "Cf" or c == "\u00ad":  # a soft hyphen is harmless
            continue
        if c == "\u200d" and not (text[k - 1: k].isalpha() or text[k + 1: k + 2].isalpha()):
            continue  # 👨‍👩‍👧: joins emoji, not letters
        raise InputError(
            f"the {what} contains an invisible character (U+{ord(c):04X}, {unicodedata.name(c, 'format character')})"
            f" at position {k + 1}; it can hide or reorder letters. Remove it (retype the word) and try again.")


def abstention(original: str) -> dict[str, Any]:
    """Return the §A13 out-of-scope object."""
    return {"original": original, "out_of_scope": True}


class Tutor:
    """A loaded model and the three stages of a correction, composed: Analyser → Judge → AnswerDecoder.

    `analyser` reads a sentence with the registry and proposes its slots; `judge` ranks every slot's
    candidates with the model's scores and the fitted weights, and owns the thresholds and the findings
    rule; `answer_decoder` writes the chosen answer under the precompiled a13 FSM. `correct` and `check`
    (through tutor.text.walk) only put them together. The ablations of `Settings` (facts, table) are
    experiments in tutor.lab.ablations.
    """

    def __init__(self, model: Any, model_file: ModelFile, settings: Settings | None = None,
                 veto: Veto | None = None) -> None:
        """`veto`: the loaded model Settings.veto_model names (Tutor.load loads it), or None."""
        self.llm = model
        self.model = model_file
        self.settings = settings or Settings()
        self.analyser = Analyser()
        self.judge = Judge(model, model_file.name, use_model=self.settings.use_model)
        self.answer_decoder = AnswerDecoder(model, model_file)
        self.veto = veto

    @classmethod
    def load(cls, model: str | Path | None = None, *, temperature: float = 0.0,
             progress: Callable[[float, str], None] | None = None, **settings: Any) -> Tutor:
        """Resolve, verify and load a model (catalogue name, GGUF path, or None for the default)."""
        from tutor.decoding.llm import LoadedModel
        from tutor.decoding.preflight import ensure_model_runs
        from tutor.threads import started_before_waits

        if started_before_waits():
            logging.getLogger(__name__).warning(
                "OpenMP (libgomp) was loaded before grammar-tutor set its wait policy (was torch imported first?): "
                "the model's threads spin at every step and a check can take several times as long on a busy "
                "machine. Set GOMP_SPINCOUNT=1000 in the environment before Python starts, or import tutor first.")

        # the parser and the word tables load in a thread beside the model's checks and load (those wait in C
        # without the GIL); an error before the model is there does not wait for the thread
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grammar-tutor-parser")
        parser = pool.submit(prepare_analyser)
        pool.shutdown(wait=False)
        if progress:
            progress(0.05, "checking the model file")
        model_file = resolve(model)
        if progress:
            progress(0.2, "checking that the model runs on this computer")
        ensure_model_runs(model_file.path, model_file.sha256)  # a native crash happens in a child, once
        if progress:
            progress(0.3, f"loading {model_file.name}")
        llm = LoadedModel(model_file)
        try:
            if progress:
                progress(0.8, "reading the vocabulary")
            st = Settings(temperature=temperature, **settings)
            veto = None
            if st.veto_model:
                if progress:
                    progress(0.82, f"loading the veto model {st.veto_model}")
                veto = load_veto(st.veto_model, min_margin=st.veto_margin)
            tutor = cls(llm, model_file, st, veto)
            if progress:
                progress(0.85, "loading the English parser")
            parser.result()
        except BaseException:
            llm.close()
            raise
        if progress:
            progress(0.9, "warming up")
        tutor.warm_up()
        if progress:
            progress(1.0, "ready")
        return tutor

    def close(self) -> None:
        """Free the model (and the veto model)."""
        self.llm.close()
        if self.veto is not None:
            self.veto.close()

    def warm_up(self) -> None:
        """Do once, at load, what the first request would otherwise pay for.

        One made-up sentence is judged: that runs the parser (loaded beside the model) and the model's scoring path (its
        buffers, and the weights' pages) once. A 2,000-character check right after loading took 2.2 s
        instead of 1.5 s without it (`grammar-tutor bench typing`). The few-shot prompt is not evaluated
        here: a judged answer is forced text, which the decoder never evaluates, and a sampled one
        evaluates the prompt when it first needs logits (the judge's scoring replaces the KV cache anyway).
        """
        self.judged(WARM_UP_SENTENCE)

    def with_settings(self, **changes: Any) -> Tutor:
        """Return a tutor sharing this model (and its stages) with some settings changed."""
        other = copy.copy(self)
        other.settings = replace(self.settings, **changes)
        if other.settings.use_model != self.settings.use_model:
            other.judge = self.judge.replace(use_model=other.settings.use_model)
        return other

    def with_scorer(self, scorer: Any) -> Tutor:
        """Return a tutor sharing this model whose judge asks `scorer` for the model's scores (a ScoreCache)."""
        other = copy.copy(self)
        other.judge = self.judge.replace(scorer=scorer)
        return other

    def with_calibration(self, calibration: Calibration) -> Tutor:
        """Return a tutor sharing this model whose judge uses other weights and thresholds (judge-fit's output)."""
        other = copy.copy(self)
        other.judge = self.judge.replace(calibration=calibration)
        return other

    # ------------------------------------------------------------------------------------------
    def judged(self, sentence: str, analysis: Analysis | None = None) -> Judged:
        """Return the judge's verdict on every verb slot of one (checked) sentence, as `correct` judges it."""
        return judge_in_turn(self.judge, lambda s: self.analyser.propose(s, analysis if s == sentence else None),
                             sentence)

    def correct(self, sentence: str, *, on_token: Callable[[str], None] | None = None) -> CorrectionResult:
        """Return the correction of one sentence (raises InputError for unusable input)."""
        t0 = time.perf_counter_ns()
        original = check_sentence(sentence)
        st = self.settings
        if not (st.facts and st.table):
            raise ValueError("facts=False and table=False are ablations kept for comparison; run them through "
                             "tutor.lab.ablations.Ablation(tutor), as `grammar-tutor correct --no-facts` does")
        proposal = self.analyser.propose(original)
        judged = None if proposal.abstain else self.judged(original, proposal.analysis)
        if judged is not None and self.veto is not None:
            judged = self.veto.review(judged)
        chosen = judged.answer() if judged is not None else None
        if chosen is None:
            return self.abstained(original, proposal.analysis, t0)
        answer, confidence = chosen
        gen = self.answer_decoder.decode(original, answer, temperature=st.temperature, seed=st.seed,
                                         jump_forward=st.jump_forward, on_token=on_token)
        output = json.loads(gen.text)
        output["confidence"] = reported_confidence(confidence)
        validate_output(output)
        en, es = explain_candidate(answer)
        mask_us = [ns / 1000 for ns in gen.mask_ns]
        timings = Timings(
            prompt_ms=judged.score_ms, forward_ms=gen.forward_ms,
            mask_p50_us=float(np.percentile(mask_us, 50)) if mask_us else 0.0,
            mask_p99_us=float(np.percentile(mask_us, 99)) if mask_us else 0.0,
            mask_max_us=max(mask_us) if mask_us else 0.0,
            tokens_sampled=gen.n_sampled, tokens_forced=gen.n_forced,
            total_ms=(time.perf_counter_ns() - t0) / 1e6, mask_us=tuple(mask_us), model_judged=bool(judged.lm),
        )
        others = tuple(self.other_finding(original, c, p) for c, p in judged.findings()
                       if (c.start, c.end) != (answer.start, answer.end))
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=not answer.change,
            confidence=confidence, error_span=answer.written if answer.change else None,
            error_start=answer.start if answer.change else None, error_end=answer.end if answer.change else None,
            explanation_en=en, explanation_es=es, timings=timings, model_name=self.model.name,
            model_sha256=self.model.sha256, settings=st.to_dict(), others=others,
            veto=judged.veto_scores.get((answer.start, answer.end)) if answer.change else None,
        )

    def other_finding(self, original: str, best: Any, probability: float) -> CorrectionResult:
        """Return a finding of the sentence besides its §A13 answer, as a correction of the same sentence (the
        fields a text check's Finding has: tutor.text.check)."""
        cell = best.cell
        en, es = explain_candidate(best)
        output = {"original": original, "verb": cell.verb, "tense": cell.tense, "person": cell.person,
                  "correct_form": best.correct_form or cell.correct_form, "spanish": cell.spanish[0],
                  "confidence": reported_confidence(probability)}
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=False, confidence=probability,
            error_span=best.written, error_start=best.start, error_end=best.end, explanation_en=en,
            explanation_es=es, model_name=self.model.name, model_sha256=self.model.sha256,
            not_sure=not self.judge.is_sure(probability))

    def abstained(self, original: str, analysis: Analysis, t0: int) -> CorrectionResult:
        """Return the §A13 out-of-scope result for a sentence with no answer, explained (a plural subject, or
        no verb of the 20); `t0` is when the correction started (perf_counter_ns)."""
        validate_output(abstention(original))
        en, es = explain_abstention(analysis)
        reason = PLURAL_SUBJECT if analysis.plural_verbs else OUTSIDE_VERBS  # as explain_abstention tells them apart
        return CorrectionResult(
            original=original, output=abstention(original), out_of_scope=True, is_correct=False,
            confidence=1.0, explanation_en=en, explanation_es=es, out_of_scope_reason=reason,
            timings=Timings(total_ms=(time.perf_counter_ns() - t0) / 1e6),
            model_name=self.model.name, model_sha256=self.model.sha256, settings=self.settings.to_dict(),
        )

    # ------------------------------------------------------------------------------------------
    def check(self, text: str, *, progress: Callable[[int, int], None] | None = None) -> CheckResult:
        """Return every verb finding of a whole text (up to 2,000 characters), with sentence spans and notes."""
        t0 = time.perf_counter_ns()
        text = check_text(text)
        spans = split_sentences(text)
        result = CheckResult(text, spans, model_name=self.model.name)
        veto_ms = self.veto.ms if self.veto is not None else 0.0
        for js in walk_text(self.analyser, self.judge, text, spans, progress,
                            lm_context_mode=self.settings.lm_context, veto=self.veto):
            result.notes.extend(js.notes)
            a = js.start
            for v in js.verdicts:
                result.checked.append(Checked(a + v.slot.start, a + v.slot.end, v.slot.written))
            for v, best in js.finding_choices():
                p = v.probability
                lo, hi = a + best.start, a + best.end
                en, es = explain_candidate(best)
                cell = best.cell
                result.findings.append(Finding(
                    original=js.sentence, verb=cell.verb, tense=cell.tense, person=cell.person,
                    correct_form=best.correct_form or cell.correct_form, spanish=cell.spanish[0], start=lo, end=hi,
                    written=text[lo:hi], confidence=p, explanation_en=en, explanation_es=es,
                    sure=self.judge.is_sure(p), veto=js.judged.veto_scores.get((v.slot.start, v.slot.end))))
        result.total_ms = (time.perf_counter_ns() - t0) / 1e6
        if self.veto is not None:
            result.veto_ms = self.veto.ms - veto_ms
        return result
