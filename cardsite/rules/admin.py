from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from cardsite.rules.models import FAQ, Page, Revision, restore, snapshot


class FAQForm(forms.ModelForm):
    class Meta:
        model = FAQ
        fields = ("order", "question", "answer")
        widgets = {
            "question": forms.TextInput(attrs={"class": "vLargeTextField"}),
            "answer": forms.Textarea(attrs={"rows": 4, "cols": 100}),
        }


class FAQInline(admin.StackedInline):
    model = FAQ
    form = FAQForm
    extra = 1
    fields = ("order", "question", "answer")


class RevisionInline(admin.TabularInline):
    """The last saves of this page; each one opens as a read-only snapshot."""

    model = Revision
    extra = 0
    max_num = 0
    can_delete = False
    fields = ("saved_at", "editor", "title", "is_published", "open")
    readonly_fields = fields
    verbose_name_plural = _("edit history")

    @admin.display(description=_("snapshot"))
    def open(self, obj):
        url = reverse("admin:rules_revision_change", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("show"))

    def has_add_permission(self, request, obj=None):
        return False


class KindFilter(admin.SimpleListFilter):
    title = _("kind")
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [("game", _("Game rules")), ("legal", _("Legal pages"))]

    def queryset(self, request, queryset):
        from cardsite.rules.models import game_slugs

        if self.value() == "game":
            return queryset.filter(slug__in=game_slugs())
        if self.value() == "legal":
            return queryset.exclude(slug__in=game_slugs())
        return queryset


class PageForm(forms.ModelForm):
    class Meta:
        model = Page
        fields = ("slug", "language", "title", "lead", "is_published", "key_points", "body")
        widgets = {
            "title": forms.TextInput(attrs={"class": "vLargeTextField"}),
            "lead": forms.Textarea(attrs={"rows": 2, "cols": 100}),
            "key_points": forms.Textarea(attrs={"rows": 8, "cols": 100}),
            "body": forms.Textarea(attrs={"rows": 32, "cols": 100}),
        }


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    form = PageForm
    list_display = (
        "title",
        "slug",
        "language",
        "is_published",
        "updated_at",
        "updated_by",
        "preview",
    )
    list_filter = (KindFilter, "slug", "language", "is_published")
    list_editable = ()
    search_fields = ("title", "lead", "body", "faqs__question")
    readonly_fields = ("updated_at", "updated_by", "preview")
    fieldsets = (
        (None, {"fields": ("slug", "language", "title", "lead", "is_published")}),
        (_("Table rules"), {"fields": ("key_points",)}),
        (_("Page"), {"fields": ("body",)}),
        (_("Last edit"), {"fields": ("updated_at", "updated_by", "preview")}),
    )
    inlines = (FAQInline, RevisionInline)

    @admin.display(description=_("preview"))
    def preview(self, obj):
        if not obj.pk:
            return "–"
        return format_html(
            '<a href="{}?preview=1" target="_blank" rel="noopener">{}</a>',
            obj.get_absolute_url(),
            _("open on the site"),
        )

    def save_model(self, request, obj, form, change):
        obj.updated_by = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        # The FAQ is saved with the inlines, so the snapshot is taken after them.
        super().save_related(request, form, formsets, change)
        snapshot(form.instance, editor=request.user)


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    """Read-only: a revision is what a save left behind."""

    list_display = ("page", "saved_at", "editor", "is_published")
    list_filter = ("page__slug", "page__language", "editor")
    date_hierarchy = "saved_at"
    actions = ("restore_revision",)

    @admin.action(description=_("Restore the selected version"), permissions=["restore"])
    def restore_revision(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(
                request, _("Select exactly one version to restore."), messages.WARNING
            )
            return
        page = restore(queryset.get(), editor=request.user)
        self.message_user(
            request, _("“%(page)s” is back to the selected version.") % {"page": page}
        )

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_restore_permission(self, request):
        return request.user.has_perm("rules.change_page")
