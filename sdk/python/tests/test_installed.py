import switchboard


def test_the_sdk_comes_from_its_installed_wheel() -> None:
    assert "site-packages" in (switchboard.__file__ or "")
