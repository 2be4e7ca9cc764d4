"""Package YAML (front matter, package.yaml): safe, and without anchors and aliases."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def loader() -> type:
    """Safe YAML without anchors and aliases: package metadata is flat, and aliases let a few
    hundred bytes expand into billions of items when the value is turned into text."""
    # Imported on first parse, like the Markdown parser: serving a built pack never parses YAML.
    import yaml

    class FrontMatterLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    "aliases are not allowed in front matter",
                    self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)

    return FrontMatterLoader


def load(text: str) -> Any:
    """``text`` parsed with :func:`loader`; raises ``yaml.YAMLError`` or ``RecursionError``."""
    import yaml

    return yaml.load(text, Loader=loader())  # noqa: S506 - a SafeLoader
