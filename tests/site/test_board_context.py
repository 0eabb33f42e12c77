"""The boards' template context calls what a board calls as Jinja's own does (cardsite/jinja.py
``BoardContext``): at once where nothing asks for the context, through Jinja's checks else."""

import functools

import pytest
from jinja2 import Environment, pass_context, pass_environment

from cardsite.jinja import BoardContext, environment

SOURCE = """
{%- macro box(x) %}[{{ x }}{% if caller %}:{{ caller() }}{% endif %}]{% endmacro -%}
{%- for i in range(3) %}{{ plain(i) }} {{ part(i) }} {{ box(i) }} {{ seen(i) }} {% endfor -%}
{%- call box("c") %}{{ env_name() }}{% endcall -%}
{{ instance(5) }} {{ stop() }}|{{ loop_seen() }}
"""


@pass_context
def seen(context, i):
    return f"{context.get('who')}{i}"


@pass_context
def loop_seen(context):
    return "ctx" if context.get("who") else "none"


@pass_environment
def env_name(env):
    return type(env).__name__.startswith(("Board", "Environment"))


class Marked:
    """A callable instance whose ``__call__`` takes the context."""

    @pass_context
    def __call__(self, context, n):
        return f"{context.get('who')}*{n}"


def stop():
    raise StopIteration


def draw(env) -> str:
    values = {
        "plain": lambda i: i * 2,
        "part": functools.partial(lambda i, k: i + k, k=10),
        "seen": seen,
        "loop_seen": loop_seen,
        "env_name": env_name,
        "instance": Marked(),
        "stop": stop,
        "who": "w",
    }
    return env.from_string(SOURCE).render(values)


def test_a_board_calls_what_it_calls_as_jinja_does():
    board = environment()
    assert board.context_class is BoardContext
    plain = Environment(autoescape=board.autoescape, undefined=board.undefined)
    drawn = draw(board)
    assert drawn == draw(plain)
    assert "0 10 [0] w0 2 11 [1] w1" in drawn and "[c:True]" in drawn and "w*5" in drawn


@pytest.mark.parametrize(
    "callable_",
    [functools.partial(seen), pass_context(lambda context, i: f"{context.get('who')}{i}")],
)
def test_a_mark_on_the_callable_itself_still_passes_the_context(callable_):
    if isinstance(callable_, functools.partial):
        callable_.jinja_pass_arg = seen.jinja_pass_arg  # a partial marked as Jinja marks one
    template = environment().from_string("{{ f(1) }}")
    assert template.render({"f": callable_, "who": "x"}) == "x1"
