"""The environment's ``min`` / ``max`` filters (a fast path for lists of numbers, issue 10)
answer exactly as Jinja's own, for numbers and for everything else."""

from __future__ import annotations

import pytest
from jinja2 import Environment

from app.web.templating import make_environment

CASES = [
    "{{ [3, 12]|min }}",
    "{{ [-4, 0]|max }}",
    "{{ [3, 1.5]|max }}",
    "{{ [7]|min }}",
    "{{ []|max }}",
    '{{ ["B", "a"]|min }}',
    '{{ ["B", "a"]|min(case_sensitive=true) }}',
    "{{ [True, 2]|max }}",
    '{{ [{"a": 1}, {"a": 3}]|max(attribute="a") }}',
    "{{ (5, 2)|min }}",
]


@pytest.mark.parametrize("source", CASES)
def test_min_and_max_answer_as_jinja(source: str) -> None:
    ours, jinja = make_environment(), Environment(autoescape=True)
    assert ours.from_string(source).render() == jinja.from_string(source).render()
