"""The tutor's front door: load a model once, then correct sentences.

`Tutor.correct` runs: check the input → analyse the sentence (facts) → the answer set → one
constrained decode on the model (original pinned, every field from the §A13 table) → the result
with its explanation, confidence and timings.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tutor.a13.analysis import analyse
from tutor.a13.candidates import Answer, answers_for, select_options
from tutor.a13.explain import explain, explain_abstention, explain_candidate
from tutor.a13.prompt import answer_json, render
from tutor.catalogue import ModelFile, resolve
from tutor.errors import InputError
from tutor.output_contract import validate_output
from tutor.result import CorrectionResult, Timings

MAX_SENTENCE_CHARS = 1000


@dataclass(frozen=True)
class Settings:
    """Switches for each idea of the pipeline (all on by default); see the README's ablation table."""

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


MAX_TEXT_CHARS = 2000


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


def not_sure_threshold() -> float:
    """Return the confidence under which a finding is shown as a question (data/judge/weights.json)."""
    from tutor.judge.judge import _weights_file

    return float(_weights_file().get("not_sure_below", 0.6))


def abstention(original: str) -> dict[str, Any]:
    """Return the §A13 out-of-scope object."""
    return {"original": original, "out_of_scope": True}


class Tutor:
    """A loaded model plus the §A13 pipeline."""

    def __init__(self, model: Any, model_file: ModelFile, settings: Settings | None = None) -> None:
        from tutor.decoding.decoder import Decoder
        from tutor.engine.choices import PieceIndex

        self.llm = model
        self.model = model_file
        self.settings = settings or Settings()
        self.decoder = Decoder(model)
        from tutor.engine.trie import token_trie
        from tutor.engine.vocab import load_vocabulary

        # the engine's vocabulary is read once per model file and cached on disk; control and special
        # tokens never spell an answer, end-of-generation ones only end it
        self.vocab = load_vocabulary(model_file.path)
        self.piece_index = PieceIndex(self.vocab.pieces, self.vocab.special_ids | self.vocab.eog_ids,
                                      eog_ids=sorted(self.vocab.eog_ids),
                                      trie=token_trie(self.vocab, persist=True))  # the tutor's cache folder

    @classmethod
    def load(cls, model: str | Path | None = None, *, temperature: float = 0.0,
             progress: Callable[[float, str], None] | None = None, **settings: Any) -> Tutor:
        """Resolve, verify and load a model (catalogue name, GGUF path, or None for the default)."""
        from tutor.decoding.llm import LoadedModel
        from tutor.decoding.preflight import ensure_model_runs

        if progress:
            progress(0.05, "checking the model file")
        model_file = resolve(model)
        if progress:
            progress(0.2, "checking that the model runs on this computer")
        ensure_model_runs(model_file.path, model_file.sha256)  # a native crash happens in a child, once
        if progress:
            progress(0.3, f"loading {model_file.name}")
        llm = LoadedModel(model_file)
        if progress:
            progress(0.8, "reading the vocabulary")
        tutor = cls(llm, model_file, Settings(temperature=temperature, **settings))
        if progress:
            progress(0.9, "warming up")
        tutor.warm_up()
        if progress:
            progress(1.0, "ready")
        return tutor

    def close(self) -> None:
        """Free the model."""
        self.llm.close()

    def warm_up(self) -> None:
        """Evaluate the fixed few-shot prefix once so later requests reuse its KV cache."""
        prefix, _ = render("", self.model.prompt_format, private=self.settings.private_fields)
        self.llm.set_context(self.llm.tokenize(prefix.encode("utf-8"), bos=True, special=True))

    def with_settings(self, **changes: Any) -> Tutor:
        """Return a tutor sharing this model with some settings changed."""
        other = object.__new__(Tutor)
        other.__dict__.update(self.__dict__)
        other.settings = replace(self.settings, **changes)
        return other

    def with_scorer(self, scorer: Any) -> Tutor:
        """Return a tutor sharing this model whose judge asks `scorer` for the model's scores (a ScoreCache)."""
        other = object.__new__(Tutor)
        other.__dict__.update(self.__dict__)
        other.llm = scorer
        return other

    # ------------------------------------------------------------------------------------------
    def correct(self, sentence: str, *, on_token: Callable[[str], None] | None = None) -> CorrectionResult:
        """Return the correction of one sentence (raises InputError for unusable input)."""
        t0 = time.perf_counter_ns()
        original = check_sentence(sentence)
        st = self.settings
        analysis = analyse(original)
        judged = chosen = None
        if not analysis.abstain and st.table and st.facts:
            judged = self.judge(original, analysis)
            chosen = judged.answer()
        if analysis.abstain or (judged is not None and chosen is None):
            validate_output(abstention(original))
            en, es = explain_abstention(analysis)
            return CorrectionResult(
                original=original, output=abstention(original), out_of_scope=True, is_correct=False,
                confidence=1.0, explanation_en=en, explanation_es=es,
                timings=Timings(total_ms=(time.perf_counter_ns() - t0) / 1e6),
                model_name=self.model.name, model_sha256=self.model.sha256, settings=st.to_dict(),
            )
        if not st.table:
            return self._correct_with_schema(original, analysis, on_token, t0)
        if not st.facts:
            return self._correct_by_decoding(original, analysis, on_token, t0)
        answer, confidence = chosen
        gen = self._decode_answer(original, answer, on_token)
        output = json.loads(gen.text)
        output["confidence"] = min(round(confidence, 4), 0.9999)  # a probability, never 1 by rounding
        validate_output(output)
        en, es = explain_candidate(answer)
        mask_us = [ns / 1000 for ns in gen.mask_ns]
        timings = Timings(
            prompt_ms=judged.score_ms, forward_ms=gen.forward_ms,
            mask_p50_us=float(np.percentile(mask_us, 50)) if mask_us else 0.0,
            mask_p99_us=float(np.percentile(mask_us, 99)) if mask_us else 0.0,
            mask_max_us=max(mask_us) if mask_us else 0.0,
            tokens_sampled=gen.n_sampled, tokens_forced=gen.n_forced,
            total_ms=(time.perf_counter_ns() - t0) / 1e6, mask_us=tuple(mask_us),
        )
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=not answer.change,
            confidence=confidence, error_span=answer.written if answer.change else None,
            error_start=answer.start if answer.change else None, error_end=answer.end if answer.change else None,
            explanation_en=en, explanation_es=es, timings=timings, model_name=self.model.name,
            model_sha256=self.model.sha256, settings=st.to_dict(),
        )

    # ------------------------------------------------------------------------------------------
    def check(self, text: str, *, progress: Callable[[int, int], None] | None = None):
        """Return every verb finding of a whole text (up to 2,000 characters), with sentence spans and notes."""
        from tutor.a13.explain import explain_candidate
        from tutor.text.check import Checked, CheckResult, Finding
        from tutor.text.sentences import split_sentences
        from tutor.text.walk import walk_text

        t0 = time.perf_counter_ns()
        text = check_text(text)
        spans = split_sentences(text)
        result = CheckResult(text, spans, model_name=self.model.name)
        sure_at = not_sure_threshold()
        for js in walk_text(self, text, spans, progress):
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
                    js.sentence, cell.verb, cell.tense, cell.person, best.correct_form or cell.correct_form,
                    cell.spanish[0], lo, hi, text[lo:hi], p, en, es, sure=p >= sure_at))
        result.total_ms = (time.perf_counter_ns() - t0) / 1e6
        return result

    def judge(self, sentence: str, analysis=None, context: str = "", tense_context: str | None = None,
              text_tenses: tuple[int, int] = (0, 0)):
        """Return the judge's verdict on every verb slot of one (checked) sentence.

        `context` is the text before the sentence (in a text check): the model reads it first, and
        its verbs' tenses are evidence for a narrative's tense (`tense_context`, default the same text,
        may reach further back than what the model reads). `text_tenses` is (past, present) finite
        forms in the rest of the text, on both sides of the sentence.
        """
        from tutor.a13.analysis import tokenize
        from tutor.judge.judge import judge_slots, lm_features, load_weights
        from tutor.judge.result import Judged
        from tutor.judge.slots import build_slots, tense_counts

        t0 = time.perf_counter_ns()
        analysis = analysis if analysis is not None else analyse(sentence)
        tense_text = context if tense_context is None else tense_context
        ctx = tense_counts(tokenize(tense_text)) if tense_text else (0, 0)
        slots = build_slots(analysis, ctx, text_tenses) if not analysis.abstain else []
        use_model = self.settings.use_model
        lm = None
        if use_model and any(c.change for s in slots for c in s.candidates):
            lm = lm_features(self.llm, self.judge_prefix(), sentence, slots, context=context)
        t1 = time.perf_counter_ns()
        verdicts = judge_slots(slots, load_weights(self.model.name, use_model=use_model), lm)
        return Judged(sentence, analysis, verdicts, lm or {}, score_ms=(t1 - t0) / 1e6)

    def judge_prefix(self) -> list[int]:
        """Return the tokens the judge puts before each sentence it scores (BOS + data/judge/prompt.json)."""
        if getattr(self, "_judge_prefix", None) is None:
            from tutor.judge.judge import judge_config

            text = judge_config()["prefix"]
            self._judge_prefix = self.llm.tokenize(text.encode("utf-8"), bos=True)
        return self._judge_prefix

    def _decode_answer(self, original: str, answer, on_token: Callable[[str], None] | None):
        """Decode the judged answer under the precompiled a13 FSM intersected with the narrowing."""
        from tutor.decoding.compose import IntersectionMatcher
        from tutor.engine.choices import ChoiceMatcher
        from tutor.engine.dfa_grammar import DFAMatcher

        cell = answer.cell
        fields = {"verb": cell.verb, "tense": cell.tense, "person": cell.person,
                  "correct_form": answer.correct_form or cell.correct_form, "spanish": cell.spanish[0]}
        text = answer_json(original, fields, private=False).encode("utf-8")
        matcher = IntersectionMatcher(DFAMatcher(self.schema_grammar()), ChoiceMatcher([text], self.piece_index))
        prefix, request = render(original, self.model.prompt_format, private=False)
        tokens = self.llm.tokenize((prefix + request).encode("utf-8"), bos=True, special=True)
        st = self.settings
        return self.decoder.generate(
            tokens, matcher, temperature=st.temperature, seed=st.seed, max_tokens=len(text) + 16,
            jump_forward=st.jump_forward,
            on_text=(lambda b: on_token(b.decode("utf-8", "replace"))) if on_token else None)

    def _correct_by_decoding(self, original: str, analysis, on_token, t0: int) -> CorrectionResult:
        """The --no-facts ablation: the model picks among every cell of the verbs present."""
        st = self.settings
        options = select_options(analysis, use_facts=False)
        answers = answers_for(options, spanish_choice=st.spanish_choice)
        if not st.priors:
            answers = [Answer(a.option, a.spanish, 0.0) for a in answers]
        answer, confidence, gen = self._decode(original, answers, on_token)
        opt = answer.option
        output = {"original": original}
        output.update(answer.fields(private=False))
        output["confidence"] = min(round(confidence, 4), 0.9999)  # a probability, never 1 by rounding
        validate_output(output)
        en, es = explain(opt)
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=not opt.is_error,
            confidence=confidence, error_span=opt.written if opt.is_error else None,
            error_start=opt.start if opt.is_error else None, error_end=opt.end if opt.is_error else None,
            explanation_en=en, explanation_es=es,
            timings=Timings(total_ms=(time.perf_counter_ns() - t0) / 1e6, tokens_sampled=gen.n_sampled,
                            tokens_forced=gen.n_forced, forward_ms=gen.forward_ms),
            model_name=self.model.name, model_sha256=self.model.sha256, settings=st.to_dict(),
        )

    def schema_grammar(self):
        """Return the compiled grammars/a13.schema.json for this model's vocabulary (cached on disk)."""
        if getattr(self, "_schema_grammar", None) is None:
            from tutor.engine.dfa_grammar import compile_json_schema
            from tutor.resources import grammar_path

            schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
            self._schema_grammar = compile_json_schema(schema, self.vocab, property_order="declared")
        return self._schema_grammar

    def _correct_with_schema(self, original: str, analysis, on_token, t0: int) -> CorrectionResult:
        """The plain path: the model fills the JSON Schema freely (no table, no facts)."""
        from tutor.engine.choices import PinnedPrefixMatcher
        from tutor.engine.dfa_grammar import DFAMatcher

        st = self.settings
        prefix, request = render(original, self.model.prompt_format, private=False)
        matcher = DFAMatcher(self.schema_grammar())
        if st.pin_original:
            literal = ('{"original":' + json.dumps(original, ensure_ascii=False)).encode("utf-8")
            matcher = PinnedPrefixMatcher(literal, matcher, self.piece_index)
        tokens = self.llm.tokenize((prefix + request).encode("utf-8"), bos=True, special=True)
        gen = self.decoder.generate(tokens, matcher, temperature=st.temperature, seed=st.seed,
                                    max_tokens=400, jump_forward=st.jump_forward,
                                    on_text=(lambda b: on_token(b.decode("utf-8", "replace"))) if on_token else None)
        output = json.loads(gen.text)
        output["confidence"] = round(float(np.exp(gen.logprob)), 4)
        validate_output(output)
        cell_key = (output["verb"], output["tense"], output["person"])
        match = next((o for o in analysis.options if o.cell.key == cell_key), None)
        is_error = match.is_error if match else True
        mask_us = [ns / 1000 for ns in gen.mask_ns]
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=not is_error,
            confidence=output["confidence"], explanation_en="", explanation_es="",
            timings=Timings(prompt_ms=gen.prompt_ms, forward_ms=gen.forward_ms,
                            mask_p50_us=float(np.percentile(mask_us, 50)) if mask_us else 0.0,
                            mask_p99_us=float(np.percentile(mask_us, 99)) if mask_us else 0.0,
                            mask_max_us=max(mask_us, default=0.0), tokens_sampled=gen.n_sampled,
                            tokens_forced=gen.n_forced, total_ms=(time.perf_counter_ns() - t0) / 1e6,
                            mask_us=tuple(mask_us)),
            model_name=self.model.name, model_sha256=self.model.sha256, settings=st.to_dict(),
        )

    def _decode(self, original: str, answers: list[Answer], on_token: Callable[[str], None] | None):
        from tutor.engine.choices import ChoiceMatcher

        st = self.settings
        prefix, request = render(original, self.model.prompt_format, private=st.private_fields)
        strings = []
        for a in answers:
            text = answer_json(original, a.fields(private=st.private_fields), private=st.private_fields)
            strings.append(text.encode("utf-8"))
        # identical strings (the same cell reached by two rules) are merged, keeping the best prior
        merged: dict[bytes, int] = {}
        for k, s in enumerate(strings):
            if s not in merged or answers[k].prior > answers[merged[s]].prior:
                merged[s] = k
        keep = list(merged.values())
        strings = [strings[k] for k in keep]
        answers = [answers[k] for k in keep]
        priors = [a.prior for a in answers]
        matcher = ChoiceMatcher(strings, self.piece_index, priors)
        tokens = self.llm.tokenize((prefix + request).encode("utf-8"), bos=True, special=True)
        decoded = bytearray()

        def stream(data: bytes) -> None:
            decoded.extend(data)
            if on_token:
                on_token(data.decode("utf-8", errors="replace"))

        gen = self.decoder.generate(tokens, matcher, temperature=st.temperature, seed=st.seed,
                                    max_tokens=st.max_tokens, jump_forward=st.jump_forward,
                                    on_text=stream if on_token else None)
        k = matcher.chosen()
        if k is None:  # cannot happen: the matcher finished on exactly one string
            k = strings.index(gen.text)
        json.loads(gen.text)  # the decoded text is the JSON of the chosen answer
        # Confidence is the probability of the cell: every accepted Spanish form is right, so the
        # choice between them (after `"spanish":"`) does not count against it.
        cut = gen.text.find(b'"spanish":"')
        logp = sum(lp for off, lp in gen.steps if cut < 0 or off < cut)
        return answers[k], float(np.exp(logp)), gen

