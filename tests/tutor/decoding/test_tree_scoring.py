"""A sentence's variants scored in one batch over several KV sequences (real llama-cpp-python, real GGUF)."""

from __future__ import annotations

import numpy as np
import pytest

from tutor.decoding.tree_scoring import max_sequences, shared_prefix_length

pytestmark = pytest.mark.model

TEXTS = ["Yesterday my brother eated a pizza and he watch a film.",
         "Yesterday my brother ate a pizza and he watch a film.",
         "Yesterday my brother ate a pizza and he watched a film.",
         "Yesterday my brother eats a pizza and he watch a film."]


def test_the_tutors_context_holds_several_sequences(tutor_engine):
    assert max_sequences(tutor_engine.llm) > len(TEXTS)


def test_one_batch_scores_as_walking_the_variants_one_by_one(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    variants = [llm.tokenize(t.encode()) for t in TEXTS]
    calls = llm.stats.calls
    tree = llm.token_logprobs(prefix, variants)
    assert llm.stats.calls - calls == 1  # the whole trie in one llama_decode
    # the prompt and the variants' shared start ("Yesterday my brother") stay; the variants' sequences are gone
    assert llm.kv_tokens == prefix + variants[0][:shared_prefix_length(variants)]
    walk = llm.walk_logprobs(prefix, variants)
    for t, w, v in zip(tree, walk, variants, strict=True):
        assert len(t) == len(w) == len(v)
        # the same model on the same tokens; the kernels differ with the cache's layout (f16 K/V), so
        # a log-probability may move by a few hundredths of a nat, never by a whole one
        assert np.all(np.abs(t - w) < 0.5)
        assert abs(t.sum() - w.sum()) < 0.5
    assert int(np.argmax([t.sum() for t in tree])) == 2  # the fully corrected sentence is the likeliest


def test_skipped_leading_tokens_are_not_scored_and_the_rest_is_unchanged(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    variants = [llm.tokenize(t.encode()) for t in TEXTS]
    full = llm.token_logprobs(prefix, variants)
    part = llm.token_logprobs(prefix, variants, [4] * len(variants))
    for f, p in zip(full, part, strict=True):
        assert np.all(p[:4] == 0.0)
        assert np.allclose(f[4:], p[4:], atol=1e-4)


def test_more_variants_than_sequences_are_scored_in_groups(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    n = max_sequences(llm) + 5
    variants = [llm.tokenize(f"I have {k} apples.".encode()) for k in range(n)]
    calls = llm.stats.calls
    lps = llm.token_logprobs(prefix, variants)
    assert llm.stats.calls - calls == 2
    assert len(lps) == n and all(np.all(lp < 0) for lp in lps)
    one = llm.walk_logprobs(prefix, variants[-1:])[0]
    assert abs(lps[-1].sum() - one.sum()) < 0.5


def test_a_trie_larger_than_the_free_cache_is_scored_in_several_batches(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    # 40 variants of about 60 tokens, all different from their first token: 2,400 cells for a
    # cache of 2,048, so the variants must be split into batches that each fit
    variants = [llm.tokenize(f"{k} {'and then we walked home ' * 10}".encode()) for k in range(40)]
    assert sum(len(v) for v in variants) > llm.n_ctx
    calls = llm.stats.calls
    lps = llm.token_logprobs(prefix, variants)
    assert llm.stats.calls - calls >= 2
    assert all(np.all(lp < 0) for lp in lps)
    assert llm.kv_tokens == prefix  # the variants share no first token: no trunk is kept


def test_a_kept_trunk_is_not_read_again_and_scores_exactly_as_read_afresh(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    lead = "I was very happy last week because my cousin came to visit us. "
    before = [llm.tokenize((lead + t).encode()) for t in TEXTS]
    edited = [llm.tokenize((lead + t[:-1] + " on TV.").encode()) for t in TEXTS]  # an edit at the end
    trunk = shared_prefix_length(edited)
    assert trunk > 15  # the lead and "Yesterday my brother"
    llm._trim(0)
    cold = llm.token_logprobs(prefix, edited)  # nothing cached but the model's prompt, afresh
    llm.token_logprobs(prefix, before)  # the same lead and first words, then the edit
    assert llm.kv_tokens[len(prefix):len(prefix) + trunk] == edited[0][:trunk]
    tokens = llm.stats.tokens
    warm = llm.token_logprobs(prefix, edited)
    evaluated = llm.stats.tokens - tokens
    assert evaluated <= sum(len(v) for v in edited) - trunk  # the lead and the first words were not read again
    for w, c in zip(warm, cold, strict=True):
        assert np.array_equal(w, c)  # the same cells in the same places: bit for bit the same scores
