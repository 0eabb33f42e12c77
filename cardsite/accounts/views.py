import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy, translate_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardsite import ratelimit
from cardsite.accounts.forms import (
    DeleteAccountForm,
    ProfileForm,
    SignupForm,
    ThrottledAuthenticationForm,
)
from cardsite.accounts.models import profile_for
from cardsite.middleware import client_ip

logger = logging.getLogger(__name__)


def _set_language_cookie(response, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=getattr(settings, "LANGUAGE_COOKIE_SECURE", False),
    )


def _redirect_in_language(request, url: str, language: str):
    """Redirect to ``url`` in ``language`` and remember the language in the cookie.

    ``url`` is resolved in its own language (its prefix), not the request's: the switch's
    own address has no prefix, so the request speaks the browser's or the cookie's language,
    and a /de/ page resolved in English matched nothing and came back unchanged (EN on a
    German page with an English browser reloaded the German page)."""
    own = translation.get_language_from_path(urlsplit(url).path)
    with translation.override(own or translation.get_language()):
        target = translate_url(url, language)
    response = HttpResponseRedirect(target)
    _set_language_cookie(response, language)
    return response


def _safe_next(request, fallback: str) -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return nxt
    return fallback


def signup(request):
    if request.user.is_authenticated and not profile_for(request.user).is_guest:
        return redirect("lobby")
    # A guest who signs up keeps the same account, so their matches and history stay theirs.
    guest = (
        request.user
        if request.user.is_authenticated and profile_for(request.user).is_guest
        else None
    )
    form = SignupForm(
        request.POST or None, instance=guest, initial={"username": ""} if guest else None
    )
    if request.method == "POST" and form.is_valid():
        user = form.save()
        profile = profile_for(user)
        profile.language = translation.get_language()
        profile.is_guest = False
        profile.save(update_fields=["language", "is_guest"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.get_username()}
        )
        return redirect(_safe_next(request, reverse("lobby")))
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        # The profile's language wins over the page's: the site greets the player in it.
        language = profile_for(form.get_user()).language
        if language and language != translation.get_language():
            return _redirect_in_language(self.request, response.url, language)
        return response


@require_POST
def logout_view(request):
    logout(request)
    messages.info(request, _("You have been logged out."))
    return redirect("lobby")


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Your password has been changed."))
        return response


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        limits = (
            ratelimit.Limit.of(
                "reset-client",
                client_ip(self.request),
                settings.PASSWORD_RESET_LIMIT_PER_CLIENT,
                settings.PASSWORD_RESET_WINDOW,
            ),
            ratelimit.Limit.of(
                "reset-address",
                form.cleaned_data["email"],
                settings.PASSWORD_RESET_LIMIT_PER_ADDRESS,
                settings.PASSWORD_RESET_WINDOW,
            ),
        )
        try:
            ratelimit.take(*limits)
        except ratelimit.Exceeded:
            # The same page as when a mail went out: it must not tell whether one did (nor
            # whether the address has an account), or the limit would be a way to find out.
            logger.info("Password-reset mail not sent: limit reached")
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
def profile(request):
    prof = profile_for(request.user)
    if not prof.language:
        prof.language = translation.get_language()
    form = ProfileForm(request.POST or None, instance=prof)
    if request.method == "POST" and form.is_valid():
        form.save()
        with translation.override(prof.language):
            messages.success(request, _("Your profile has been saved."))
        return _redirect_in_language(request, reverse("accounts:profile"), prof.language)
    return render(request, "accounts/profile.html", {"form": form, "profile": prof})


@login_required
def delete_account(request):
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        user.delete()
        messages.info(request, _("Your account has been deleted. Thank you for playing."))
        return redirect("lobby")
    return render(request, "accounts/delete.html", {"form": form})


@require_POST
def sound(request):
    """The table's sound toggle (static/js/feel.js): the choice kept with the account too."""
    if request.user.is_authenticated:
        prof = profile_for(request.user)
        prof.sound = request.POST.get("on") == "1"
        prof.save(update_fields=["sound"])
    return HttpResponse(status=204)


@require_POST
def set_language(request):
    """The header's language switch: cookie for everyone, the profile for a player."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return redirect(_safe_next(request, reverse("lobby")))
    if request.user.is_authenticated:
        prof = profile_for(request.user)
        prof.language = language
        prof.save(update_fields=["language"])
    return _redirect_in_language(request, _safe_next(request, reverse("lobby")), language)
