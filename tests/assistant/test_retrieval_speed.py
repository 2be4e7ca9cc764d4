"""The retrieval speed-ups change nothing: same expansions, same matched terms, same rankings.

Each optimised path is compared with the straightforward version it replaced (written out here)
on questions built from every row, heading and glossary synonym of the sample package.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from assistant.package import kinds as section_kinds
from assistant.package.expansion import PHRASE_PREFIX, Expansion
from assistant.retrieval import index as retrieval
from assistant.retrieval import rank_features, ranking
from assistant.retrieval.index import row_tokens
from assistant.retrieval.query import Query
from core.text import content_stems, stemmed_stopwords, stems


def reference_expand(e: Expansion, seq: Sequence[str]) -> list[str]:
    extra: list[str] = []
    stop = stemmed_stopwords()
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


def test_search_results_match_bm25s_retrieve_row_analysis_and_the_plain_typo_loop(
    built_sample_pack, questions, monkeypatch
):
    index = built_sample_pack.index
    fast = [index.search(q, k=8) for q in questions]

    def retrieved(known, k):
        # bm25s's own retrieve (in a thread pool, as it runs by default), then the topic weights.
        depth = min(len(index.rows), max(k * 3, 20))
        docs, scores = index._bm25.retrieve([known], k=depth, show_progress=False, n_threads=1)
        ranked = sorted(
            (
                (float(s) * retrieval.TOPIC_WEIGHTS.get(index.rows[int(d)].topic, 1.0), int(d))
                for d, s in zip(docs[0], scores[0], strict=True)
                if s > 0
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        return ranked[:k]

    monkeypatch.setattr(index, "_rank", retrieved)

    def analysed(doc_ids, terms):
        rows_terms = [set(row_tokens(index.rows[d], index.expansion)) for d in doc_ids]
        return [[t for t in terms if t in row_terms] for row_terms in rows_terms]

    def reference_correct(stem):
        if len(stem) < retrieval.MIN_TYPO_LENGTH or stem in index.doc_freq or not stem.isalpha():
            return stem
        best, best_df = stem, 0
        for candidate in retrieval._edits1(stem):
            df = index.doc_freq.get(candidate, 0)
            if df > best_df:
                best, best_df = candidate, df
        return best

    monkeypatch.setattr(index, "_terms_in_rows", analysed)
    monkeypatch.setattr(index, "correct", reference_correct)
    slow = [index.search(q, k=8) for q in questions]
    assert sum(1 for r in fast if r.hits) > len(questions) // 2
    assert fast == slow


def test_typo_correction_picks_what_the_plain_loop_picks(built_sample_pack):
    index = built_sample_pack.index
    words = [w for w in index.doc_freq if len(w) >= retrieval.MIN_TYPO_LENGTH and w.isalpha()][:150]
    typos = [w[:2] + w[3:] for w in words] + [w[:-1] + "q" for w in words] + ["zzzzzz", "stagee"]
    for typo in typos:
        if len(typo) < retrieval.MIN_TYPO_LENGTH or typo in index.doc_freq:
            assert index.correct(typo) == typo
            continue
        # The plain loop over the candidates in alphabetical order: the most frequent wins, and
        # among equals the alphabetically first (deterministic whatever the hash seed).
        best, best_df = typo, 0
        for candidate in sorted(retrieval._edits1(typo)):
            df = index.doc_freq.get(candidate, 0)
            if df > best_df:
                best, best_df = candidate, df
        assert index.correct(typo) == best


def test_the_rows_a_question_names_by_heading_are_those_the_scan_of_every_row_finds(
    built_sample_pack, questions
):
    index = built_sample_pack.index

    def scanned(own, term):
        out = []
        for row in index.rows:
            heading = frozenset(content_stems(row.heading))
            if heading and (
                heading == term
                or (len(heading) > 1 and heading <= own and row.kind != section_kinds.DEFINITION)
            ):
                out.append(row)
        return out

    named = 0
    for question in [*questions, "What is a gate owner?", "What is the risk owner?"]:
        q = rank_features.analyse(index, Query.of(question))
        found = ranking._headed_rows(index, q.own, q.term)
        assert found == scanned(q.own, q.term)
        named += bool(found)
    # A heading or row title and heading as the question: most name a section by its heading.
    assert named > len(questions) // 4
