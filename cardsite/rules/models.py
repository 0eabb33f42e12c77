"""Rule pages of the three games and the legal pages, one row per slug and language.

Staff edit them in the admin; every save leaves a :class:`Revision`, so an edit can be
looked up and undone by hand. Players only ever see published pages.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

LEGAL_SLUGS = ("impressum", "privacy")
KEY_POINT_COUNT = 5


def game_slugs() -> tuple[str, ...]:
    """The games' rule pages: a game's page has the game's name as its slug. Asked each time
    (not kept from import): the games the site lists (games.registry)."""
    from games.registry import table_games

    return tuple(g.name for g in table_games())


def page_choices() -> list[tuple[str, object]]:
    from games.registry import game_choices

    return [*game_choices(), ("impressum", _("Legal notice")), ("privacy", _("Privacy"))]


class Page(models.Model):
    """A game's rules or a legal page in one language."""

    slug = models.CharField(_("page"), max_length=20, choices=page_choices)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    title = models.CharField(_("title"), max_length=120)
    lead = models.CharField(
        _("lead"),
        max_length=300,
        blank=True,
        help_text=_("One or two sentences under the title and on the rules index."),
    )
    key_points = models.TextField(
        _("five key points"),
        blank=True,
        help_text=_(
            "The table rules card shown before a game starts: exactly five lines, one point "
            "each. Card codes such as [QS] become small cards. Leave empty on legal pages."
        ),
    )
    body = models.TextField(
        _("body"),
        help_text=_(
            "Markdown. Card codes such as [QS], [TC], [BJ], [RJ] become small cards; a "
            "worked example is a block from '::: example …' to ':::'."
        ),
    )
    is_published = models.BooleanField(_("published"), default=True)
    updated_at = models.DateTimeField(_("last edited"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("edited by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("page")
        verbose_name_plural = _("pages")
        ordering = ("slug", "language")
        constraints = [
            models.UniqueConstraint(fields=("slug", "language"), name="rules_page_slug_language")
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.language})"

    def get_absolute_url(self) -> str:
        with translation.override(self.language):
            if self.is_game:
                return reverse("rules:game", args=[self.slug])
            return reverse("legal:page", args=[self.slug])

    @property
    def is_game(self) -> bool:
        return self.slug in game_slugs()

    @property
    def points(self) -> list[str]:
        return [line.strip() for line in self.key_points.splitlines() if line.strip()]

    def clean(self):
        super().clean()
        if self.is_game and len(self.points) != KEY_POINT_COUNT:
            raise ValidationError(
                {
                    "key_points": _("A rule page needs exactly %(n)d key points, one per line.")
                    % {"n": KEY_POINT_COUNT}
                }
            )


class FAQ(models.Model):
    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="faqs")
    question = models.CharField(_("question"), max_length=300)
    answer = models.TextField(_("answer"), help_text=_("Markdown; card codes allowed."))
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")
        ordering = ("order", "id")

    def __str__(self) -> str:
        return self.question


class Revision(models.Model):
    """A snapshot of a page as one save left it, FAQ included."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="revisions")
    saved_at = models.DateTimeField(_("saved"), auto_now_add=True)
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("editor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    title = models.CharField(_("title"), max_length=120)
    lead = models.CharField(_("lead"), max_length=300, blank=True)
    key_points = models.TextField(_("five key points"), blank=True)
    body = models.TextField(_("body"))
    faqs = models.JSONField(_("FAQ"), default=list)
    is_published = models.BooleanField(_("published"))

    class Meta:
        verbose_name = _("revision")
        verbose_name_plural = _("revisions")
        ordering = ("-saved_at", "-id")

    def __str__(self) -> str:
        return f"{self.page} @ {self.saved_at:%Y-%m-%d %H:%M}"


def snapshot(page: Page, editor=None) -> Revision:
    """Record the page as it stands now."""
    return Revision.objects.create(
        page=page,
        editor=editor,
        title=page.title,
        lead=page.lead,
        key_points=page.key_points,
        body=page.body,
        faqs=[
            {"question": f.question, "answer": f.answer, "order": f.order} for f in page.faqs.all()
        ],
        is_published=page.is_published,
    )


def restore(revision: Revision, editor=None) -> Page:
    """Put a page back the way ``revision`` recorded it, FAQ included, as a new edit."""
    page = revision.page
    page.title = revision.title
    page.lead = revision.lead
    page.key_points = revision.key_points
    page.body = revision.body
    page.is_published = revision.is_published
    page.updated_by = editor
    page.save()
    page.faqs.all().delete()
    FAQ.objects.bulk_create(
        FAQ(page=page, question=f["question"], answer=f["answer"], order=f.get("order", 0))
        for f in revision.faqs
    )
    snapshot(page, editor=editor)
    return page
