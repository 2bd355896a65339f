"""League pages under /league/: seasons, Events, players and the organizer dashboard."""

from django.urls import path

from league import views

app_name = "league"

urlpatterns = [
    # Public (login required, like the lobby).
    path("", views.seasons, name="seasons"),
    path("seasons/<int:season_id>/", views.season, name="season"),
    path("events/<int:event_id>/", views.event, name="event"),
    path("events/<int:event_id>/results/", views.event_results, name="event_results"),
    path("events/<int:event_id>/calendar.ics", views.event_calendar, name="event_calendar"),
    path("events/<int:event_id>/picks/", views.event_pick, name="event_pick"),
    path("events/<int:event_id>/team-player/", views.event_team_player,
         name="event_team_player"),
    path("events/<int:event_id>/enter/", views.event_enter, name="event_enter"),
    path("events/<int:event_id>/leave/", views.event_leave, name="event_leave"),
    path("events/<int:event_id>/ranking-points/", views.event_ranking, name="event_ranking"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("ratings/", views.ratings, name="ratings"),
    # Organizers.
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/seasons/new/", views.season_create, name="season_create"),
    path("dashboard/events/new/", views.event_create, name="event_create"),
    path("dashboard/showdown/new/", views.showdown_create, name="showdown_create"),
    path("dashboard/rescore/", views.rescore, name="rescore"),
    path("dashboard/rescore/<str:job>/", views.rescore_progress, name="rescore_progress"),
    path("dashboard/seasons/<int:season_id>/standings.csv", views.season_csv,
         name="season_csv"),
    path("dashboard/events/<int:event_id>/", views.event_admin, name="event_admin"),
    path("dashboard/events/<int:event_id>/entrants/", views.entrant_add, name="entrant_add"),
    path("dashboard/events/<int:event_id>/entrants/<str:key>/withdraw/",
         views.entrant_withdraw, name="entrant_withdraw"),
    path("dashboard/events/<int:event_id>/entrants/<str:key>/reinstate/",
         views.entrant_reinstate, name="entrant_reinstate"),
    path("dashboard/events/<int:event_id>/open-entry/", views.event_open_entry,
         name="event_open_entry"),
    path("dashboard/events/<int:event_id>/details/", views.event_details,
         name="event_details"),
    path("dashboard/events/<int:event_id>/settings/", views.event_settings,
         name="event_settings"),
    path("dashboard/events/<int:event_id>/season/", views.event_season,
         name="event_season"),
    path("dashboard/events/<int:event_id>/seed/", views.event_seed, name="event_seed"),
    path("dashboard/events/<int:event_id>/start/", views.event_start, name="event_start"),
    path("dashboard/events/<int:event_id>/pair/", views.event_pair, name="event_pair"),
    path("dashboard/events/<int:event_id>/release/", views.round_release,
         name="round_release"),
    path("dashboard/events/<int:event_id>/correct/", views.result_correct,
         name="result_correct"),
    path("dashboard/events/<int:event_id>/live/", views.event_live, name="event_live"),
    path("dashboard/events/<int:event_id>/forfeit/", views.match_forfeit,
         name="match_forfeit"),
    path("dashboard/events/<int:event_id>/seat-to-bot/", views.match_seat_to_bot,
         name="match_seat_to_bot"),
    path("dashboard/events/<int:event_id>/standings.csv", views.event_csv, name="event_csv"),
    path("dashboard/events/<int:event_id>/results.csv", views.event_results_csv,
         name="event_results_csv"),
    path("dashboard/simulations/", views.simulations, name="simulations"),
    path("dashboard/simulations/new/", views.simulation_create, name="simulation_create"),
    path("dashboard/simulations/<int:job_id>/", views.simulation_job, name="simulation"),
    path("dashboard/simulations/<int:job_id>/progress/", views.simulation_progress,
         name="simulation_progress"),
    path("dashboard/simulations/<int:job_id>/cancel/", views.simulation_cancel,
         name="simulation_cancel"),
    path("dashboard/simulations/<int:job_id>/resume/", views.simulation_resume,
         name="simulation_resume"),
    path("dashboard/simulations/<int:job_id>/logs.jsonl", views.simulation_logs,
         name="simulation_logs"),
    path("teams/new/", views.team_create, name="team_create"),
]

# Balance reports, public read (league/report_views.py).
from league import report_views  # noqa: E402

urlpatterns += [
    path("balance/", report_views.balance_reports, name="balance_reports"),
    path("balance/<str:game>/", report_views.balance_report_page, name="balance_report"),
    path("balance/<str:game>/plots.svg", report_views.balance_report_svg,
         name="balance_report_svg"),
]
