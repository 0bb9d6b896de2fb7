"""The plain paths kept for comparison: a Tutor with one of its ideas switched off.

    grammar-tutor correct --no-facts "He goed home."     # the model samples among every cell of the verbs
    grammar-tutor eval FILE --no-table                   # the model fills the plain a13 JSON Schema FSM
    grammar-tutor eval FILE --no-table --no-pin-original # … without `original` forced to the sentence

`Ablation(tutor)` corrects as `Tutor.correct` does when every idea is on, and otherwise runs the path its
settings ask for (see `tutor.api.Settings`); `check` is the tutor's own (a text is always judged). Only the
lab's side reaches this module: `eval` wraps its tutor with `ablated()`, and `correct` wraps its plain Tutor
in an `Ablation` only when --no-facts or --no-table is given (`check` never needs it).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from tutor.a13.analysis import Analysis, analyse
from tutor.a13.candidates import Answer, answers_for, select_options
from tutor.a13.explain import explain
from tutor.a13.prompt import answer_json
from tutor.api import check_sentence
from tutor.engine.choices import ChoiceMatcher, PinnedPrefixMatcher
from tutor.output_contract import reported_confidence, validate_output
from tutor.result import CorrectionResult, Timings

if TYPE_CHECKING:
    from tutor.api import Tutor
    from tutor.text.check import CheckResult


class Ablation:
    """A Tutor whose `correct` runs the plain path its settings ask for (facts=False or table=False)."""

    def __init__(self, tutor: Tutor) -> None:
        self.tutor = tutor

    @property
    def settings(self) -> Any:
        """Return the tutor's settings (the switches of every idea)."""
        return self.tutor.settings

    @property
    def judge(self) -> Any:
        """Return the tutor's judge (Tutoring asks it whether a correction is sure)."""
        return self.tutor.judge

    @property
    def model(self) -> Any:
        """Return the tutor's model file."""
        return self.tutor.model

    def correct(self, sentence: str, *, on_token: Callable[[str], None] | None = None) -> CorrectionResult:
        """Return the correction of one sentence by the path the settings ask for."""
        st = self.tutor.settings
        if st.facts and st.table:
            return self.tutor.correct(sentence, on_token=on_token)
        t0 = time.perf_counter_ns()
        original = check_sentence(sentence)
        analysis = analyse(original)
        if analysis.abstain:
            return self.tutor.abstained(original, analysis, t0)
        if not st.table:
            return self._with_schema(original, analysis, on_token, t0)
        return self._by_decoding(original, analysis, on_token, t0)

    def check(self, text: str, *, progress: Callable[[int, int], None] | None = None) -> CheckResult:
        """Return the tutor's check of a text (no switch here changes how a text is judged)."""
        return self.tutor.check(text, progress=progress)

    def _by_decoding(self, original: str, analysis: Analysis, on_token: Callable[[str], None] | None,
                     t0: int) -> CorrectionResult:
        """The --no-facts path: the model picks among every cell of the verbs present."""
        st = self.tutor.settings
        options = select_options(analysis, use_facts=False)
        answers = answers_for(options, spanish_choice=st.spanish_choice)
        if not st.priors:
            answers = [Answer(a.option, a.spanish, 0.0) for a in answers]
        answer, confidence, gen = self._decode(original, answers, on_token)
        opt = answer.option
        output = {"original": original}
        output.update(answer.fields(private=False))
        output["confidence"] = reported_confidence(confidence)
        validate_output(output)
        en, es = explain(opt)
        tutor = self.tutor
        return CorrectionResult(
            original=original, output=output, out_of_scope=False, is_correct=not opt.is_error,
            confidence=confidence, error_span=opt.written if opt.is_error else None,
            error_start=opt.start if opt.is_error else None, error_end=opt.end if opt.is_error else None,
            explanation_en=en, explanation_es=es,
            timings=Timings(total_ms=(time.perf_counter_ns() - t0) / 1e6, tokens_sampled=gen.n_sampled,
                            tokens_forced=gen.n_forced, forward_ms=gen.forward_ms),
            model_name=tutor.model.name, model_sha256=tutor.model.sha256, settings=st.to_dict(),
        )

    def _with_schema(self, original: str, analysis: Analysis, on_token: Callable[[str], None] | None,
                     t0: int) -> CorrectionResult:
        """The --no-table path: the model fills the JSON Schema freely (no table, no facts)."""
        tutor = self.tutor
        st = tutor.settings
        stage = tutor.answer_decoder
        matcher = stage.schema_grammar().matcher()
        if st.pin_original:
            literal = ('{"original":' + json.dumps(original, ensure_ascii=False)).encode("utf-8")
            matcher = PinnedPrefixMatcher(literal, matcher, stage.compiler.piece_index())
        gen = stage.decoder.generate(stage.prompt(original), matcher, temperature=st.temperature, seed=st.seed,
                                       max_tokens=400, jump_forward=st.jump_forward,
                                       on_text=(lambda b: on_token(b.decode("utf-8", "replace"))) if on_token
                                       else None)
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
            model_name=tutor.model.name, model_sha256=tutor.model.sha256, settings=st.to_dict(),
        )

    def _decode(self, original: str, answers: list[Answer], on_token: Callable[[str], None] | None):
        """Return (the answer the model chose, its probability, the generation) among `answers`."""
        tutor = self.tutor
        st = tutor.settings
        stage = tutor.answer_decoder
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
        matcher = ChoiceMatcher(strings, stage.compiler.piece_index(), priors)
        gen = stage.decoder.generate(stage.prompt(original, private=st.private_fields), matcher,
                                       temperature=st.temperature, seed=st.seed, max_tokens=st.max_tokens,
                                       jump_forward=st.jump_forward,
                                       on_text=(lambda b: on_token(b.decode("utf-8", "replace"))) if on_token
                                       else None)
        k = matcher.chosen()
        if k is None:  # cannot happen: the matcher finished on exactly one string
            k = strings.index(gen.text)
        json.loads(gen.text)  # the decoded text is the JSON of the chosen answer
        # Confidence is the probability of the cell: every accepted Spanish form is right, so the
        # choice between them (after `"spanish":"`) does not count against it.
        cut = gen.text.find(b'"spanish":"')
        logp = sum(lp for off, lp in gen.steps if cut < 0 or off < cut)
        return answers[k], float(np.exp(logp)), gen


def ablated(tutor: Tutor) -> Tutor | Ablation:
    """Return the tutor itself when its settings switch no plain path on, else an Ablation around it."""
    st = tutor.settings
    return tutor if st.facts and st.table else Ablation(tutor)
