"""A source group's token count is the sum of its parts' counts, so package parts can be remembered."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.domain import lanes, prompt
from assistant.domain.prompt import SourceRef
from assistant.pipeline import citations, services
from core import tokens


def _ref(cid: str, title: str, text: str, meta: dict[str, str]) -> SourceRef:
    return SourceRef(
        citation_id=cid, citation_class=lanes.PACKAGE_CITATION, title=title, text=text, meta=meta
    )


PKG = lanes.PACKAGE_CITATION


def test_render_group_is_its_parts_joined_in_the_documented_format():
    refs = (_ref("P1", "T", "body", {}), _ref("P2", "U", "more", {"source_path": "a.md"}))
    assert prompt.group_parts("G", PKG, refs) == (
        f"<<<GROUP {PKG} | G\n",
        "<<<SOURCE P1 | T\nbody\n>>>END SOURCE P1\n",
        "<<<SOURCE P2 | U | source_path: a.md\nmore\n>>>END SOURCE P2\n",
        f">>>END GROUP {PKG}\n",
    )
    assert prompt.render_group("G", PKG, refs) == "".join(prompt.group_parts("G", PKG, refs))
    assert (
        prompt.render_group("G", PKG, ())
        == f"<<<GROUP {PKG} | G\n(none supplied)\n>>>END GROUP {PKG}\n"
    )


def test_sum_of_parts_equals_the_whole_for_sample_package_selections(built_sample_pack):
    rows = built_sample_pack.rows
    rng = random.Random(7)
    for _ in range(150):
        picked = rng.sample(rows, rng.randint(1, 4))
        refs = tuple(citations.package_ref(f"P{i}", r) for i, r in enumerate(picked, 1))
        parts = prompt.group_parts("Approved package sources", PKG, refs)
        assert sum(map(tokens.count, parts)) == tokens.count("".join(parts))


_text = st.text(st.characters(codec="utf-8"), max_size=200) | st.sampled_from(
    ["", " ", "\n", " \n ", "end.\n\n", "  leading", "trailing  ", "'s", "123\n", "\r\n\r\n", "»»»"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_text, _text, _text), min_size=1, max_size=4), _text)
def test_sum_of_parts_equals_the_whole_for_any_text(sources, name):
    refs = tuple(
        _ref(f"P{i}", t, x, {"claim_boundary": m}) for i, (t, x, m) in enumerate(sources, 1)
    )
    parts = prompt.group_parts(name, PKG, refs)
    assert sum(map(tokens.count, parts)) == tokens.count(prompt.render_group(name, PKG, refs))


def test_questions_never_reach_the_shared_count(monkeypatch):
    seen: list[str] = []
    real = tokens.count_shared

    def recording(text: str) -> int:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(tokens, "count_shared", recording)
    question = "who owns each stage gate?"
    run = services.answer(question=question)
    assert run.state.value == "answered"
    assert seen, "package parts should be counted through the shared count"
    assert not any(question in text for text in seen)
    usage = run.telemetry["tokens"]
    assert usage["user_prompt_tokens"] == tokens.count(question)


def test_telemetry_counts_equal_direct_counts_of_what_the_provider_was_sent():
    from assistant.providers.deterministic import DeterministicProvider

    class Recording(DeterministicProvider):
        def __init__(self) -> None:
            self.requests: list[prompt.ProviderRequest] = []

        def complete(self, request):
            self.requests.append(request)
            return super().complete(request)

    for question in ("who owns each stage gate?", "how do we roll back a release?"):
        provider = Recording()
        usage = services.answer(question=question, provider=provider).telemetry["tokens"]
        (request,) = provider.requests
        assert usage["package_context_tokens"] == tokens.count(prompt.package_group(request)) > 0
        assert usage["system_instruction_tokens"] == tokens.count(request.system_instructions)


def test_only_package_sources_are_remembered_and_all_render_alike(monkeypatch):
    remembered: list[str] = []
    real = prompt._package_source_part

    def recording(citation_id, title, text, meta_items):
        remembered.append(text)
        return real(citation_id, title, text, meta_items)

    monkeypatch.setattr(prompt, "_package_source_part", recording)
    package = _ref("P1", "Package row", "approved text", {"source_path": "a.md"})
    upload = SourceRef("U1", lanes.UPLOADED_CITATION, "Draft", "uploaded text", {"page": 2})
    odd = _ref("P2", "Odd", "package text with a list in meta", {"tags": ["a", "b"]})
    rendered = prompt.render_group("G", PKG, (package, upload, odd))
    assert remembered == ["approved text"]
    assert rendered == "".join(
        prompt._source_part(r.citation_id, r.title, r.text, tuple(r.meta.items()))
        for r in (package, upload, odd)
    ).join([f"<<<GROUP {PKG} | G\n", f">>>END GROUP {PKG}\n"])
