from django.urls import path

from games import views, views_daily

app_name = "games"

urlpatterns = [
    path("play/<slug:game>/", views.play_now, name="play_now"),
    path("learn/", views.learn, name="learn"),
    path("daily/", views_daily.daily, name="daily"),
    path("daily/history/", views_daily.daily_history, name="daily_history"),
    path("daily/table/<uuid:code>/", views_daily.daily_of_table, name="daily_of_table"),
    path("daily/<slug:game>/", views_daily.daily_start, name="daily_start"),
    path("daily/<slug:game>/<str:day>/", views_daily.daily_day, name="daily_day"),
    path("daily/<slug:game>/<str:day>/best/", views_daily.daily_best, name="daily_best"),
    path("daily/<slug:game>/<str:day>/reveal/", views_daily.daily_reveal, name="daily_reveal"),
    path("learn/<slug:game>/", views.start_lesson, name="start_lesson"),
    path("tables/new/<slug:game>/", views.new_table, name="new_table"),
    path("tables/join/", views.join_by_code, name="join"),
    path("join/<str:token>/", views.invitation, name="invitation"),
    path("tables/<uuid:code>/", views.table_page, name="table"),
    path("tables/<uuid:code>/resign/", views.resign, name="resign"),
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<uuid:code>/", views.match_page, name="match"),
    path("matches/<uuid:code>/hands/<int:number>/", views.hand_replay, name="replay"),
    path("matches/<uuid:code>/hands/<int:number>/again/", views.same_deal, name="same_deal"),
    path("matches/<uuid:code>/hands/<int:number>/review/", views.hand_review, name="review"),
    path("players/<int:pk>/", views.player, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("strength/", views.strength, name="strength"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard_game"),
]
