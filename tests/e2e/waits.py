"""Waits for the real-browser tests."""


def left_the_page(element: object) -> object:
    """A WebDriverWait condition: the page holding `element` has been replaced (after a submit).

    Selenium's `staleness_of` asks the element whether it is enabled; while the next page is
    loading, ChromeDriver sometimes answers «Node with given id does not belong to the document»
    (a plain WebDriverException) instead of a stale-element error: that is the same fact."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    def check(_driver: object) -> bool:
        try:
            element.is_enabled()  # type: ignore[attr-defined]
        except StaleElementReferenceException:
            return True
        except WebDriverException as exc:
            if "does not belong to the document" in str(exc) or "No node with given id" in str(exc):
                return True
            raise
        return False

    return check


def across_pages(browser: object, timeout: float) -> object:
    """A WebDriverWait for a condition read while a click replaces the page (a form's submit).

    The element found on the old page goes stale between `find_element` and reading its text;
    the next poll finds it on the new page, so a stale element is «not yet», not a failure."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException,))
