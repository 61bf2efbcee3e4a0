"""Every Python example of the README, run in order in one namespace, as a reader would paste them."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import Server

README = Path(__file__).parent.parent / "README.md"


def test_the_readme_examples_run(server: Server) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert len(blocks) >= 8
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 (the README is this repository's own)
    receive = namespace["receive"]
    assert callable(receive)
    assert receive({}, b"{}") == 400
    tool_call = namespace["tool_call"]
    assert callable(tool_call)
    assert tool_call({}, b"") == 401
