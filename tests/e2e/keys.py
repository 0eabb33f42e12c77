"""Keys as a person uses them, where Playwright's own presses fall short."""


def hold(page, key: str, repeats: int = 5) -> None:
    """``key`` held down on the focused element: the keydowns a held key repeats (which
    Playwright's press never sends), then the press itself."""
    page.evaluate(
        """([key, repeats]) => { for (let i = 0; i < repeats; i++) document.activeElement
            .dispatchEvent(new KeyboardEvent("keydown", {key, repeat: true, bubbles: true})); }""",
        [key, repeats],
    )
    page.keyboard.press(key)
