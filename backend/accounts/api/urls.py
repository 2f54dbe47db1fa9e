from django.urls import path

from . import views

urlpatterns = [
    path("csrf/", views.CsrfView.as_view(), name="auth-csrf"),
    path("signup/", views.SignupView.as_view(), name="auth-signup"),
    path("login/", views.LoginView.as_view(), name="auth-login"),
    path("logout/", views.LogoutView.as_view(), name="auth-logout"),
    path("me/", views.MeView.as_view(), name="auth-me"),
    path("language/", views.LanguageView.as_view(), name="auth-language"),
    path("password/", views.PasswordView.as_view(), name="auth-password"),
    path("email/", views.EmailView.as_view(), name="auth-email"),
    path("email/confirm/", views.EmailConfirmView.as_view(), name="auth-email-confirm"),
    path("password-reset/", views.PasswordResetView.as_view(), name="auth-password-reset"),
    path("password-reset/check/", views.PasswordResetCheckView.as_view(), name="auth-password-reset-check"),
    path("password-reset/confirm/", views.PasswordResetConfirmView.as_view(), name="auth-password-reset-confirm"),
    path("token/", views.TokenView.as_view(), name="auth-token"),
    path("ws-ticket/", views.WsTicketView.as_view(), name="auth-ws-ticket"),
]
