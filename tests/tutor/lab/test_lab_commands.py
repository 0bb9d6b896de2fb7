"""The lab commands run with small N and print what they promise: shapes and sane values."""

from __future__ import annotations

import argparse
import json
import math

import pytest

from tutor.cli import build_parser, main
from tutor.lab import compliance, mask_overhead


def last_json(text: str) -> dict:
    return json.loads(text.strip().splitlines()[-1])


def lab_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["lab", *argv])


def test_lab_subcommands_are_registered() -> None:
    for name in ("mask-overhead", "compliance", "regex-vs-cfg"):
        assert lab_args(name, "--json").experiment == name
    args = lab_args("compliance", "--n", "3", "--workload", "zip", "--workload", "parens", "--json")
    assert (args.n, args.workload, args.json) == (3, ["zip", "parens"], True)


def test_regex_vs_cfg_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "regex-vs-cfg", "--max-pieces", "8", "--depth", "2", "--json"]) == 0
    out = capsys.readouterr().out
    assert "| regex | DFA states |" in out
    data = last_json(out)
    assert data["strings"] == sum(3**k for k in range(1, 9)) and data["cfg_accepts"] > 0
    assert set(data["regexes"]) == {"depth_1", "depth_2", "flat"}
    depth1, depth2, flat = (data["regexes"][k] for k in ("depth_1", "depth_2", "flat"))
    # a depth-limited regex only ever rejects balanced strings; the flat one only ever accepts unbalanced ones
    assert depth1["wrongly_accepted"] == 0 and depth1["wrongly_rejected"] > depth2["wrongly_rejected"] > 0
    assert depth2["dfa_states"] > depth1["dfa_states"]
    assert flat["wrongly_rejected"] == 0 and flat["wrongly_accepted"] > 0
    assert "(())" in depth1["examples_rejected"] and "(()" in flat["examples_accepted"]


@pytest.mark.model
def test_one_decoder_drives_all_three_families(lab_model) -> None:
    from tutor.lab.families import load_family
    from tutor.lab.workloads import a13_sentences, load_workloads

    decoder = lab_model.decoder
    workloads = load_workloads()[1]
    kinds = set()
    for name in ("zip", "parens", "a13"):
        workload = workloads[name]
        family = load_family(workload.grammar, lab_model.vocab)
        prompt = lab_model.prompts(workload, 1, a13_sentences([]))[0]
        gen = decoder.generate(prompt, family.matcher(), temperature=0.0, max_tokens=workload.max_tokens)
        assert gen.finished and family.judge(gen.text), (name, gen.text)
        kinds.add(family.kind)
    assert kinds == {"regex", "cfg", "json"} and lab_model.decoder is decoder


@pytest.mark.model
def test_compliance_small_n(lab_model, dev_set_path, capsys: pytest.CaptureFixture[str]) -> None:
    args = lab_args("compliance", "--n", "2", "--workload", "zip", "--workload", "parens", "--workload", "a13",
                    "--dev-set", str(dev_set_path), "--dev-n", "1", "--json")
    assert compliance.report(lab_model, args) == 0
    out = capsys.readouterr().out
    data = last_json(out)
    assert set(data) == {"zip", "parens", "a13"}
    for name, row in data.items():
        assert set(row) == {"n", "constrained_valid", "unconstrained_valid", "p50_ms"}
        assert row["n"] == 2 and row["constrained_valid"] == 2, name  # the mask admits only valid outputs
        assert 0 <= row["unconstrained_valid"] <= 2 and row["p50_ms"] > 0
    assert "| zip | regex | 2 |" in out and "a13 dev set (1 items, greedy)" in out


@pytest.mark.model
def test_mask_overhead_small_n(lab_model, capsys: pytest.CaptureFixture[str]) -> None:
    args = lab_args("mask-overhead", "--n", "1", "--json")
    assert mask_overhead.report(lab_model, args) == 0
    out = capsys.readouterr().out
    data = last_json(out)
    assert set(data) == {"regex", "cfg", "json_precompiled", "json_rederived"}
    for key, row in data.items():
        assert set(row) == {"mask_p50_us", "mask_p99_us", "overhead_pct"}, key
        assert all(math.isfinite(v) and v > 0 for v in row.values()), (key, row)
        assert row["mask_p99_us"] >= row["mask_p50_us"]
    assert "| json_rederived | a13.schema.json |" in out


def test_peers_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    # Peers are an optional extra: absent ones are listed as "not installed", never an error.
    assert main(["lab", "peers", "--workload", "parens", "--peer", "llguidance", "--peer", "outlines-core",
                 "--json"]) == 0
    out = capsys.readouterr().out
    data = last_json(out)["parens"]
    ours = data["grammar-tutor"]
    assert set(ours) == {"compile_ms", "first_mask_ms", "memory_mb", "mask_p50_us", "mask_p99_us", "mask_max_us",
                         "mask_apply_p50_us", "mask_apply_p99_us", "mask_apply_max_us", "same_mask", "valid",
                         "unfinished", "mask_differences", "note"}
    assert ours["first_mask_ms"] > ours["compile_ms"] and isinstance(ours["memory_mb"], float)
    assert ours["mask_p50_us"] > 0 and ours["mask_p99_us"] >= ours["mask_p50_us"] and ours["compile_ms"] > 0
    assert ours["mask_max_us"] >= ours["mask_p99_us"] and ours["mask_apply_p50_us"] > ours["mask_p50_us"]
    walks = int(ours["valid"].split("/")[1]) + ours["unfinished"]
    assert walks == 10 and ours["valid"].split("/")[0] == ours["valid"].split("/")[1]  # judged by gbnf_judge
    outlines = next(v for k, v in data.items() if k.startswith("outlines-core"))
    assert outlines["note"] in ("no CFG support", "not installed (pip install llguidance outlines-core)")
    llg = next(v for k, v in data.items() if k.startswith("llguidance"))
    assert llg["mask_p50_us"] is None or llg["mask_p50_us"] > 0
    assert llg["same_mask"] is None or llg["same_mask"].split("/")[0] == llg["same_mask"].split("/")[1]
    assert "| parens | grammar-tutor |" in out


def test_peers_eager_build_gives_the_lazy_masks(capsys: pytest.CaptureFixture[str]) -> None:
    # the same compiler building every state up front: its mask equals the lazy one at every step
    assert main(["lab", "peers", "--workload", "phone", "--peer", "grammar-tutor-eager", "--walks", "2",
                 "--json"]) == 0
    data = last_json(capsys.readouterr().out)["phone"]
    eager = data["grammar-tutor eager"]
    done, compared = eager["same_mask"].split("/")
    assert done == compared and int(compared) > 10
    assert eager["valid"].split("/")[0] == eager["valid"].split("/")[1]


def test_llguidance_a13_masks_differ_from_ours_only_in_what_classify_explains(capsys) -> None:
    # the earlier finding (llguidance agreeing on 56 of 247 a13 steps): every other step is its forced-token
    # canonicalisation or its ban of raw DEL in strings, never a token of ours outside the schema's language
    pytest.importorskip("llguidance")
    from tutor.lab.peers import FORCED_CANONICAL, PEER_BANS_DEL

    assert main(["lab", "peers", "--workload", "a13", "--peer", "llguidance", "--walks", "0", "--json"]) == 0
    data = last_json(capsys.readouterr().out)["a13"]
    llg = next(v for k, v in data.items() if k.startswith("llguidance"))
    same, compared = map(int, llg["same_mask"].split("/"))
    assert compared > 200 and same < compared
    assert set(llg["mask_differences"]) <= {FORCED_CANONICAL, PEER_BANS_DEL}
    assert sum(llg["mask_differences"].values()) == compared - same


def test_token_paths_spell_their_text(default_model_path) -> None:
    from tutor.engine.vocab import load_vocabulary
    from tutor.lab.peers import a13_examples, to_lark, token_path

    vocab = load_vocabulary(default_model_path)
    for text in ["(atom(atom))", 'name="Ada"\n', *a13_examples()]:
        path = token_path(text.encode(), vocab)
        assert b"".join(vocab.pieces[t] for t in path) == text.encode()
    assert to_lark('# c\nroot ::= a "x" # tail\na ::= /[a-z]+/\n') == 'start: a "x"\na: /[a-z]+/\n'
