"""Observation -> template context: card faces, seat positions, the status line.

Everything here reads one seat's observation (or the public view), so a page or a frame can
never show more than that seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import messages
from games.engine import IllegalAction, gongzhu
from games.models import LEVEL_CHOICES

POSITIONS = ("bottom", "right", "top", "left")  # play passes counter-clockwise on screen
BOT_NAMES = {1: "Lan", 2: "Wei", 3: "Jun"}


@dataclass
class Card:
    code: str
    playable: bool = True
    selected: bool = False
    reason: str = ""
    marker: str = ""

    @property
    def suit(self) -> str:
        return "" if self.code in ("BJ", "RJ") else self.code[1]

    @property
    def rank(self) -> str:
        return messages.RANK_SHORT.get(self.code[0], self.code[0]) if self.suit else "★"

    @property
    def symbol(self) -> str:
        return messages.SUIT_SYMBOLS.get(self.suit, "")

    @property
    def label(self) -> str:
        return messages.card_name(self.code)


def seat_names(table) -> dict[int, dict]:
    out = {}
    for seat in table.seats.all():
        if seat.is_bot:
            out[seat.index] = {
                "name": BOT_NAMES.get(seat.index, _("Bot")),
                "is_bot": True,
                "level": seat.get_bot_level_display(),
            }
        else:
            user = seat.user
            name = user.get_username() if user else _("(left)")
            profile = getattr(user, "profile", None) if user else None
            if profile is not None and profile.display_name:
                name = profile.display_name
            elif profile is not None and profile.is_guest:
                name = _("Guest")
            out[seat.index] = {"name": name, "is_bot": False, "level": ""}
    return out


def position_of(seat: int, viewer: int) -> str:
    """Gong Zhu's four places, the viewer at the bottom and play going counter-clockwise."""
    return POSITIONS[(seat - viewer) % 4]


MARKERS = {"QS": "pig", "JD": "goat", "TC": "transformer"}


def marker_label(kind: str) -> str:
    return {"pig": _("The pig!"), "goat": _("The goat!"), "transformer": _("The transformer!")}.get(
        kind, ""
    )


def exposure_effect(card: str) -> str:
    return {
        "AH": _("hearts ×2"),
        "QS": _("pig ×2"),
        "JD": _("goat ×2"),
        "TC": _("transformer ×2"),
    }[card]


def _refusal_reasons(state, seat: int, cards: list[str], legal: set[str]) -> dict[str, str]:
    """Why each card the seat holds may not be played now, asked of the engine itself."""
    game = gongzhu.game
    reasons = {}
    for card in cards:
        if card in legal:
            continue
        try:
            game.apply(state, seat, {"type": "play", "card": card})
        except IllegalAction as e:
            reasons[card] = messages.refusal(e.code, e.params)
    return reasons


def gongzhu_context(table, view: dict, seat: int | None, state=None, selected=()) -> dict:
    """The Gong Zhu board for one viewer (``seat`` None: a spectator sitting at seat 0)."""
    viewer = 0 if seat is None else seat
    names = seat_names(table)
    phase = view["phase"]
    to_move = view.get("to_move")
    totals = view["totals"]
    out = set(view.get("out") or [])
    trick = view.get("trick") or {"plays": []}
    last = view.get("last_trick")
    # A trick that has just closed stays in the middle until the next card is played.
    showing_closed = bool(last and not trick["plays"] and phase != "expose")
    center_plays = last["plays"] if showing_closed else trick["plays"]

    seats = []
    for s in range(4):
        exposed_unplayed = (view.get("exposed_unplayed") or [[]] * 4)[s]
        seats.append(
            {
                "index": s,
                "position": position_of(s, viewer),
                "name": names[s]["name"],
                "is_bot": names[s]["is_bot"],
                "level": names[s]["level"],
                "is_viewer": s == seat,
                "cards_left": view["hand_sizes"][s],
                "hand_score": view["hand_scores"][s],
                "total": totals[s],
                "out": s in out,
                "to_move": phase == "play" and to_move == s,
                "threat": view.get("all_hearts_threat") == s,
                "exposed": [Card(c) for c in exposed_unplayed],
                "exposed_all": [Card(c) for c in (view.get("exposed") or [[]] * 4)[s]],
                "collected": [Card(c) for c in (view.get("collected") or [[]] * 4)[s]],
                "played": None,
            }
        )
    for play in center_plays:
        seats[play["seat"]]["played"] = Card(play["card"], marker=MARKERS.get(play["card"], ""))
    markers = [
        {"kind": MARKERS[p["card"]], "label": marker_label(MARKERS[p["card"]])}
        for p in center_plays
        if p["card"] in MARKERS
    ]

    hand_cards = view.get("hand") or []
    legal = set(view.get("legal_cards") or [])
    my_turn = seat is not None and phase == "play" and to_move == seat and not view.get("result")
    reasons = {}
    if my_turn and state is not None:
        reasons = _refusal_reasons(state, seat, hand_cards, legal)
    elif seat is not None and phase == "play" and not view.get("result"):
        waiting = names[to_move]["name"] if to_move is not None else ""
        reasons = dict.fromkeys(
            hand_cards, _("Wait for your turn: %(name)s is playing.") % {"name": waiting}
        )
    hand = [
        Card(
            c,
            playable=(c in legal) if my_turn else False,
            selected=c in selected,
            reason=reasons.get(c, ""),
        )
        for c in hand_cards
    ]
    exposure = None
    if seat is not None and phase == "expose":
        exposure = {
            "decided": view.get("decided"),
            "choice": [Card(c) for c in (view.get("my_exposure") or [])],
            "options": [
                {"card": Card(c, selected=c in selected), "effect": exposure_effect(c)}
                for c in view.get("exposable") or []
            ],
        }

    status = _status(view, seat, names, showing_closed, last)
    # The empty choice was made for a player with nothing to expose: say so in the first trick.
    no_exposure_note = False
    if seat is not None and phase == "play" and not view.get("tricks"):
        in_trick = [p["card"] for p in trick["plays"] if p["seat"] == seat]
        dealt = set(hand_cards) | set(in_trick)
        no_exposure_note = not (dealt & set(gongzhu.EXPOSABLE))
    result = _result(view, names, viewer) if view.get("result") else None
    return {
        "view": view,
        "viewer": seat,
        "spectator": seat is None,
        "phase": phase,
        "seats": seats,
        "seats_by_position": {s["position"]: s for s in seats},
        "center_closed": showing_closed,
        "closed_winner": names[last["winner"]]["name"]
        if showing_closed and last.get("winner") is not None
        else "",
        "markers": markers,
        "last_trick": [
            {"seat": names[p["seat"]]["name"], "card": Card(p["card"])}
            for p in (last or {}).get("plays", [])
        ],
        "last_trick_winner": names[last["winner"]]["name"]
        if last and last.get("winner") is not None
        else "",
        "hand": hand,
        "my_turn": my_turn,
        "exposure": exposure,
        "status": status,
        "result": result,
        "hand_number": view["hand_number"],
        "match_over": view.get("match_over") or table.status != "active",
        "resigned": table.status == "resigned",
        "version": view["version"],
        "table": table,
        "announce": _announcement(view, names),
        "level_choices": LEVEL_CHOICES,
        "no_exposure_note": no_exposure_note,
        "bots_moving": phase == "play"
        and not view.get("result")
        and to_move is not None
        and to_move != seat
        and names.get(to_move, {}).get("is_bot", False),
    }


def _status(view, seat, names, showing_closed, last) -> str:
    phase = view["phase"]
    if view.get("result"):
        return _("The hand is over.")
    if phase == "expose":
        if seat is None:
            return _("The players are deciding what to expose.")
        if view.get("decided"):
            return _("Waiting until everyone has decided what to expose…")
        if not view.get("exposable"):
            return _("You have no card to expose this hand.")
        return _("Expose cards to double their effect – or decline.")
    to_move = view.get("to_move")
    if seat is not None and to_move == seat:
        trick = view.get("trick") or {"plays": []}
        if not trick["plays"]:
            return _("Your lead: play any card.")
        suit = trick["plays"][0]["card"][1]
        if any(c[1] == suit for c in view.get("hand") or []):
            return _("Your turn: follow %(suit)s.") % {"suit": messages.SUIT_NAMES[suit]}
        return _("Your turn: you have no %(suit)s, play any card.") % {
            "suit": messages.SUIT_NAMES[suit]
        }
    if to_move is not None:
        return _("%(name)s is playing…") % {"name": names[to_move]["name"]}
    return ""


def _announcement(view, names) -> str:
    """One sentence for the screen reader's live region: the latest card played."""
    trick = view.get("trick") or {"plays": []}
    plays = trick["plays"] or ((view.get("last_trick") or {}).get("plays") or [])
    if not plays:
        return ""
    p = plays[-1]
    text = _("%(name)s played the %(card)s.") % {
        "name": names[p["seat"]]["name"],
        "card": messages.card_name(p["card"]),
    }
    last = view.get("last_trick")
    if not trick["plays"] and last and last.get("winner") is not None:
        text += " " + _("%(name)s takes the trick.") % {"name": names[last["winner"]]["name"]}
    return text


def result_rows(view, names, viewer) -> list[dict]:
    """One row per seat of the hand's breakdown, with the running total (every game)."""
    return [
        {
            "seat": s,
            "name": names[s]["name"],
            "row": row,
            "is_viewer": s == viewer,
            "total": view["totals"][s],
        }
        for s, row in enumerate(view["result"]["breakdown"])
    ]


def _result(view, names, viewer) -> dict:
    rows = result_rows(view, names, viewer)
    ranking = sorted(
        (
            {"seat": s, "name": names[s]["name"], "total": t, "out": t <= -1000}
            for s, t in enumerate(view["totals"])
        ),
        key=lambda r: -r["total"],
    )
    won = view.get("winner") == viewer if view.get("match_over") else None
    return {"rows": rows, "ranking": ranking, "won": won}


def frame_cards(value) -> list:
    """Card codes from a browser frame: one value or a list (htmx sends a lone checkbox as a string)."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    return [value]  # anything else reaches the engine, which refuses it as malformed


def gongzhu_action(data: dict) -> dict | None:
    """A Gong Zhu move from a browser frame, or None if the frame is no move at all."""
    kind = data.get("action")
    if kind == "play":
        return {"type": "play", "card": data.get("card")}
    if kind == "expose":
        return {"type": "expose", "cards": frame_cards(data.get("cards"))}
    return None


def gongzhu_replay(table, hand, steps, names) -> dict:
    """Trick by trick, from the rebuilt hand (``steps``) or, failing that, the logged plays."""
    if steps is not None:
        final = steps[-1][2] if steps else {}
        tricks = final.get("tricks") or []
        exposures = [
            {"name": names[s]["name"], "cards": [Card(c) for c in cards]}
            for s, cards in enumerate(final.get("exposed") or [])
        ]
    else:
        plays = [
            (e.seat, e.action.get("card"))
            for e in hand.actions.order_by("seq")
            if e.action.get("type") == "play"
        ]
        tricks = [
            {"plays": [{"seat": s, "card": c} for s, c in plays[i : i + 4]], "winner": None}
            for i in range(0, len(plays), 4)
        ]
        exposures = []
    return {
        "exposures": exposures,
        "tricks": [
            {
                "number": i + 1,
                "plays": [
                    {"name": names[p["seat"]]["name"], "card": Card(p["card"])} for p in t["plays"]
                ],
                "winner": names[t["winner"]]["name"] if t.get("winner") is not None else "",
            }
            for i, t in enumerate(tricks)
        ],
    }
