from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext

from cardsite.accounts import throttle
from cardsite.accounts.models import Profile
from cardsite.middleware import client_ip

# Django's own sentence under the password confirmation, which its German catalog words
# impersonally ("Bitte das selbe Passwort ..."): this project's catalog says it with "du"
# (the project's catalog is searched first). Named here so that makemessages keeps it.
gettext_noop("Enter the same password as before, for verification.")


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def save(self, commit=True):
        user = super().save(commit=False)
        user.email = self.cleaned_data.get("email", "")
        if commit:
            user.save()
        return user


class ThrottledAuthenticationForm(AuthenticationForm):
    """Refuses attempts once a username or an address has failed too often."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        password = self.cleaned_data.get("password")
        if not (username and password):
            # Without both no password is checked, so nothing is counted and nothing cleared:
            # an empty password must not reset the username's count between guesses.
            return super().clean()
        ip = client_ip(self.request) if self.request else ""
        try:
            # Counted before the password is checked, so parallel guesses cannot all get in.
            uses = throttle.attempt(username, ip)
        except throttle.Throttled as e:
            raise self._throttled(e.seconds) from None
        cleaned = super().clean()  # a wrong password raises and its attempt stays counted
        throttle.succeeded(username, uses)
        return cleaned

    def _throttled(self, seconds):
        minutes = throttle.minutes(seconds)
        return forms.ValidationError(
            ngettext(
                "Too many failed attempts. Please wait %(minutes)d minute and try again.",
                "Too many failed attempts. Please wait %(minutes)d minutes and try again.",
                minutes,
            )
            % {"minutes": minutes},
            code="throttled",
        )


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Preferred language"), choices=settings.LANGUAGES, required=True
    )

    class Meta:
        model = Profile
        fields = ("display_name", "language")
        help_texts = {"display_name": _("Shown at the table instead of your username.")}


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That password is not correct."), code="wrong_password")
        return password
