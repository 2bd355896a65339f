"""Page URLs: accounts, lobby, play and replay."""

from django.contrib.auth import views as auth_views
from django.urls import path

from matches import views
from matches.forms import SignInForm

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True,
                                                authentication_form=SignInForm),
         name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("register/", views.register, name="register"),
    path("account/", views.account, name="account"),
    path("account/data.json", views.account_data_file, name="account_data"),
    path("account/email/<str:token>/", views.email_confirm, name="email_confirm"),
    path("password/forgot/", views.forgot_password, name="password_forgot"),
    path("password/reset/<uidb64>/<token>/", views.ResetPassword.as_view(),
         name="password_reset_confirm"),
    path("", views.lobby, name="lobby"),
    path("lobby/live/", views.lobby_live, name="lobby_live"),
    path("play/", views.quick_play, name="quick_play"),
    path("matches/new/", views.create, name="match_create"),
    path("matches/<int:match_id>/", views.play, name="match_play"),
    path("matches/<int:match_id>/join/", views.join, name="match_join"),
    path("matches/<int:match_id>/state/", views.state, name="match_state"),
    path("matches/<int:match_id>/act/", views.act, name="match_act"),
    path("matches/<int:match_id>/resign/", views.resign, name="match_resign"),
    path("matches/<int:match_id>/rematch/", views.rematch, name="match_rematch"),
    path("matches/<int:match_id>/rematch/offer/", views.rematch_offer,
         name="match_rematch_offer"),
    path("matches/<int:match_id>/replay/", views.replay, name="match_replay"),
]
