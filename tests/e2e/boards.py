"""The board as a browser test compares it: a patched page against a reloaded one."""


def board_markup(page, leave_out: str = "") -> str:
    """The board as the page shows it, without what a reload rightly differs in: spacing, the
    order of attributes (the page's script sets some in its own order), empty inline styles
    (the browser driver leaves style="" on inputs it looked at) and classes (a form the page
    marked as sending and unmarked keeps class=""), the page's own marks (synced,
    which details the player opened) and the elements ``leave_out`` selects."""
    return page.evaluate(
        """(leaveOut) => {
        const b = document.getElementById('board').cloneNode(true);
        b.removeAttribute('data-synced');
        b.querySelectorAll('details[open]').forEach((d) => d.removeAttribute('open'));
        if (leaveOut) b.querySelectorAll(leaveOut).forEach((e) => e.remove());
        [b, ...b.querySelectorAll('*')].forEach((el) => {
            if (el.getAttribute('style') === '') el.removeAttribute('style');
            if (el.getAttribute('class') === '') el.removeAttribute('class');
            const attrs = [...el.attributes].map((a) => [a.name, a.value]).sort();
            attrs.forEach(([n]) => el.removeAttribute(n));
            // A style through the CSSOM: the Content-Security-Policy refuses setAttribute('style').
            attrs.forEach(([n, v]) => (n === 'style' ? (el.style.cssText = v) : el.setAttribute(n, v)));
        });
        return b.outerHTML.replace(/>\\s+</g, '><').replace(/\\s+/g, ' ');
    }""",
        leave_out,
    )


_PLAYED_OR_ASKED = """(version) => {
    const chip = document.activeElement && document.activeElement.matches('.reading-chip');
    return chip || document.getElementById('board').dataset.version !== version;
}"""


def play_the_selection(page) -> None:
    """Press Play as a person does: the selection is played, or, when it reads more than one
    way and no Hint chose the reading, the page focuses the first reading chip (and says so)
    and that chip is tapped. Waits for one or the other: a chip looked for at once was often
    the last frame's, gone while the tap waited for it."""
    version = page.locator("#board").get_attribute("data-version")
    page.get_by_test_id("play").click()
    page.wait_for_function(_PLAYED_OR_ASKED, arg=version)
    if page.locator("#board").get_attribute("data-version") == version:
        page.locator("#readings .reading-chip:focus").click()
