from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from cardsite import views
from cardsite.accounts import views as account_views

urlpatterns = [
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("favicon.ico", RedirectView.as_view(url=settings.STATIC_URL + "img/favicon.svg")),
]

urlpatterns += i18n_patterns(
    path("", views.lobby, name="lobby"),
    path("accounts/", include("cardsite.accounts.urls")),
    path("", include("games.urls")),
    path("rules/", include("cardsite.rules.urls")),
    path("legal/", include("cardsite.rules.legal_urls")),
    prefix_default_language=True,
)

handler404 = "cardsite.views.error_404"
handler403 = "cardsite.views.error_403"
handler500 = "cardsite.views.error_500"
