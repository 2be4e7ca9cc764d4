"""Fuzzing the package artifact parser: any bytes give an Artifact or a PackageError, nothing else."""

from __future__ import annotations

import time

from hypothesis import example, given, settings
from hypothesis import strategies as st

from assistant.package.artifacts import Artifact, PackageError, parse_artifact

HEAD = b"---\ntitle: T\nsource_family: f\nsource_quality: q\nclaim_boundary: c\n"
BODY = b"---\n\n# T\n\n## Section\n\nSome text.\n"
LAUGHS = (
    b'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    + b"".join(
        f"{n}: &{n} [{','.join(['*' + p] * 9)}]\n".encode()
        for p, n in zip("abcdefg", "bcdefgh", strict=True)
    )
    + b"summary: [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)

yaml_bits = st.sampled_from(
    [
        b"title: ",
        b"topic: ",
        b"topic_number: ",
        b"summary: ",
        b"- ",
        b"[",
        b"]",
        b"{",
        b"}",
        b"&a ",
        b"*a",
        b"!!python/object:os.system ",
        b"!!binary ",
        b"'",
        b'"',
        b"\n",
        b"  ",
        b"---\n",
        b"...\n",
        b"2020-01-01",
        b"~",
        b"yes",
        b"0x1F",
        b"\t",
        b"#",
        b":",
        b",",
        b"\xc3\xa9",
        b"\xff",
    ]
)
markdown_bits = st.sampled_from(
    [
        b"# ",
        b"## ",
        b"### ",
        b"\n",
        b"\n\n",
        b"| a | b |\n|---|---|\n| 1 | 2 |\n",
        b"```\n",
        b"    code\n",
        b"<script>x</script>",
        b"[link](javascript:x)",
        b"*",
        b"_",
        b"Also called: x See: y",
        b"\x00",
    ]
)
structured = st.tuples(
    st.lists(yaml_bits | st.binary(max_size=8), max_size=25).map(b"".join),
    st.lists(markdown_bits | st.binary(max_size=8), max_size=25).map(b"".join),
).map(lambda parts: b"---\n" + parts[0] + b"\n---\n" + parts[1])
near_valid = st.lists(yaml_bits | markdown_bits, max_size=20).map(
    lambda extra: HEAD + b"".join(extra) + BODY
)
paths = st.sampled_from(["a.md", "dir/b.md", "../c.md", "d.txt", "/e.md", "f.MD", "g/../h.md"])


def _parse(path: str, raw: bytes) -> None:
    try:
        artifact = parse_artifact(path, raw)
    except PackageError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
    else:
        assert isinstance(artifact, Artifact)
        assert artifact.sections and artifact.title


@settings(max_examples=300, deadline=None)
@given(path=paths, raw=st.binary(max_size=400) | structured | near_valid)
@example(path="a.md", raw=HEAD + b"x: " + b"[" * 3000 + b"]" * 3000 + b"\n" + BODY)
@example(path="a.md", raw=HEAD + b"x: " + b"{a: " * 3000 + b"1" + b"}" * 3000 + b"\n" + BODY)
@example(path="a.md", raw=HEAD + b"x: !!python/object/apply:os.system ['true']\n" + BODY)
@example(path="a.md", raw=HEAD + BODY)
def test_any_bytes_give_an_artifact_or_a_package_error(path: str, raw: bytes) -> None:
    _parse(path, raw)


def test_yaml_alias_expansion_is_refused_quickly() -> None:
    started = time.monotonic()
    try:
        parse_artifact("a.md", HEAD + LAUGHS + BODY)
    except PackageError as exc:
        assert any("not valid YAML" in p for p in exc.problems)
    else:
        raise AssertionError("front matter with YAML aliases was accepted")
    assert time.monotonic() - started < 1.0


def test_deep_nesting_is_a_named_problem() -> None:
    raw = HEAD + b"x: " + b"[" * 3000 + b"]" * 3000 + b"\n" + BODY
    try:
        parse_artifact("a.md", raw)
    except PackageError as exc:
        assert "a.md: front matter is nested too deeply" in exc.problems
    else:
        raise AssertionError("deeply nested front matter was accepted")
