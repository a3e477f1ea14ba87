def test_settings_are_spanish_first(settings):
    assert settings.LANGUAGE_CODE == "es"
    assert settings.TIME_ZONE == "Europe/Madrid"
