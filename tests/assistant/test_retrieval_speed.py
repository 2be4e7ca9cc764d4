"""The retrieval speed-ups change nothing: same expansions, same matched terms, same rankings.

Each optimised path is compared with the straightforward version it replaced (written out here)
on questions built from every row, heading and glossary synonym of the sample package.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from assistant import retrieval
from assistant.retrieval import PHRASE_PREFIX, Expansion, row_tokens, stems


def reference_expand(e: Expansion, seq: Sequence[str]) -> list[str]:
    extra: list[str] = []
    stop = retrieval._STEMMED_STOPWORDS()
    for alt, canonical in e.synonyms.items():
        n = len(alt)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i : i + n]) == alt:
                extra.extend(s for s in canonical if s not in stop)
                if len(canonical) > 1:
                    extra.append(PHRASE_PREFIX + "_".join(canonical))
                break
    return extra


def reference_expansions_by_word(e: Expansion, seq: Sequence[str]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for alt, canonical in e.synonyms.items():
        n = len(alt)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i : i + n]) == alt:
                tokens = set(canonical)
                if len(canonical) > 1:
                    tokens.add(PHRASE_PREFIX + "_".join(canonical))
                for word in alt:
                    out.setdefault(word, set()).update(tokens)
    return out


@pytest.fixture(scope="module")
def questions(built_sample_pack) -> list[str]:
    pack = built_sample_pack
    out = []
    for row in pack.rows:
        out += [row.heading, f"{row.title} {row.heading}", " ".join(row.text.split()[:12])]
    for alt, canonical in pack.index.expansion.synonyms.items():
        out += [f"what about {' '.join(alt)} here", f"{' '.join(canonical)} and {' '.join(alt)}"]
    return out


def test_synonym_expansion_matches_the_full_scan(built_sample_pack, questions):
    e = built_sample_pack.index.expansion
    assert len(e.synonyms) > 50
    for q in questions:
        seq = stems(q)
        assert e.expand(seq) == reference_expand(e, seq)
        got = e.expansions_by_word(seq)
        want = reference_expansions_by_word(e, seq)
        assert list(got) == list(want) and got == want


def test_search_results_match_thread_pool_scoring_and_uncached_row_terms(
    built_sample_pack, questions, monkeypatch
):
    index = built_sample_pack.index
    fast = [index.search(q, k=8) for q in questions]

    bm25 = index._bm25
    real_retrieve = bm25.retrieve

    def pooled_retrieve(*args, **kwargs):
        return real_retrieve(*args, **{**kwargs, "n_threads": 1})

    monkeypatch.setattr(bm25, "retrieve", pooled_retrieve)
    monkeypatch.setattr(
        index, "_row_terms", lambda doc_id: set(row_tokens(index.rows[doc_id], index.expansion))
    )
    slow = [index.search(q, k=8) for q in questions]
    assert sum(1 for r in fast if r.hits) > len(questions) // 2
    assert fast == slow


def test_row_terms_cache_is_bounded(built_sample_pack, monkeypatch):
    index = built_sample_pack.index
    monkeypatch.setattr(retrieval, "ROW_TERMS_CACHE_SIZE", 3)
    index._row_terms_cache.clear()
    for doc_id in range(10):
        assert index._row_terms(doc_id) == frozenset(row_tokens(index.rows[doc_id], index.expansion))
        assert len(index._row_terms_cache) <= 3
