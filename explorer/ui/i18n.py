"""Language choice and Qt translators (English source strings, Simplified Chinese in resources/i18n).

Settings → Language saves the choice (in the window's settings store, beside the State), installs its
translator and rebuilds the window with the same State (explorer.ui.app.run_app's switch_language,
explorer.ui.api_window.switch_language): the menus, the control panel and every view are made anew in the
new language. Installing a translator alone does not change a window already built (its menus and controls
keep their words).

Pattern every widget follows:

* Mark visible strings with ``self.tr("...")`` in a QObject subclass, or
  ``QCoreApplication.translate("Context", "...")`` elsewhere; for tables defined at import time use
  ``QT_TRANSLATE_NOOP("Context", "...")`` and translate when shown. Literal strings only (no f-strings,
  no concatenation); put numbers in with Qt's ``%1 .. %N`` after translating:
  ``fill(self.tr("position %1"), p)`` (explorer.translations.fill); the translation keeps the same
  ``%1`` (``tools/translations.py --check`` verifies). Do not use ``%n`` plural forms (Chinese has none;
  lupdate mis-reads the three-argument ``tr``).
* Set every text in one method ``retranslate_ui()``, called at the end of ``__init__`` and on
  ``QEvent.LanguageChange``: inherit ``Retranslatable`` first (``class Panel(Retranslatable, QWidget)``)
  or write the same ``changeEvent``. Views and panels built after a switch read the new words; those
  that follow LanguageChange redraw in place.
* Then run ``python tools/translations.py`` (refreshes the .ts, merges resources/i18n/zh_CN.json, compiles
  the .qm) and add the Chinese for each new string to zh_CN.json.
"""

from __future__ import annotations

from PySide6.QtCore import (QCoreApplication, QEvent, QLibraryInfo, QLocale, QSettings,
                            QTranslator, QT_TRANSLATE_NOOP)

from explorer.paths import resource

SETTINGS_KEY = "ui/language"
DEFAULT = "en"
QM_PREFIX = "pe_explorer_"
NAMES = {"en": "English", "zh_CN": "简体中文"}  # each language in its own script: never translated

# Words the whole UI shares; views use term("token") for axis labels and legends.
TERMS = [
    QT_TRANSLATE_NOOP("Glossary", "positional encoding"),
    QT_TRANSLATE_NOOP("Glossary", "token"),
    QT_TRANSLATE_NOOP("Glossary", "token ID"),
    QT_TRANSLATE_NOOP("Glossary", "embedding"),
    QT_TRANSLATE_NOOP("Glossary", "token embedding"),
    QT_TRANSLATE_NOOP("Glossary", "position"),
    QT_TRANSLATE_NOOP("Glossary", "dimension"),
    QT_TRANSLATE_NOOP("Glossary", "channel"),
    QT_TRANSLATE_NOOP("Glossary", "heatmap"),
    QT_TRANSLATE_NOOP("Glossary", "curves"),
    QT_TRANSLATE_NOOP("Glossary", "similarity"),
    QT_TRANSLATE_NOOP("Glossary", "cosine similarity"),
    QT_TRANSLATE_NOOP("Glossary", "dot product"),
    QT_TRANSLATE_NOOP("Glossary", "sine"),
    QT_TRANSLATE_NOOP("Glossary", "cosine"),
    QT_TRANSLATE_NOOP("Glossary", "frequency"),
    QT_TRANSLATE_NOOP("Glossary", "wavelength"),
    QT_TRANSLATE_NOOP("Glossary", "base"),
    QT_TRANSLATE_NOOP("Glossary", "model dimension (d_model)"),
    QT_TRANSLATE_NOOP("Glossary", "maximum length (max_len)"),
    QT_TRANSLATE_NOOP("Glossary", "offset"),
    QT_TRANSLATE_NOOP("Glossary", "layout"),
    QT_TRANSLATE_NOOP("Glossary", "interleaved"),
    QT_TRANSLATE_NOOP("Glossary", "concatenated"),
    QT_TRANSLATE_NOOP("Glossary", "rotation"),
    QT_TRANSLATE_NOOP("Glossary", "learned positions"),
    QT_TRANSLATE_NOOP("Glossary", "rotary position embedding (RoPE)"),
    QT_TRANSLATE_NOOP("Glossary", "one-hot"),
    QT_TRANSLATE_NOOP("Glossary", "tokenizer"),
    QT_TRANSLATE_NOOP("Glossary", "vocabulary"),
    QT_TRANSLATE_NOOP("Glossary", "sentence"),
    QT_TRANSLATE_NOOP("Glossary", "presentation mode"),
    QT_TRANSLATE_NOOP("Glossary", "scene"),
    QT_TRANSLATE_NOOP("Glossary", "deck"),
    QT_TRANSLATE_NOOP("Glossary", "export"),
    QT_TRANSLATE_NOOP("Glossary", "language"),
]

_installed: list[QTranslator] = []
_current = DEFAULT


def term(text: str) -> str:
    """A glossary word in the current language (``text`` must be one of TERMS)."""
    return QCoreApplication.translate("Glossary", text)


def qm_path(lang: str):
    """Path of the compiled translations for ``lang`` (may not exist)."""
    return resource("i18n", f"{QM_PREFIX}{lang}.qm")


def available_languages() -> list[str]:
    """English plus every language with a compiled .qm in resources/i18n."""
    folder = resource("i18n")
    found = sorted(p.stem[len(QM_PREFIX):] for p in folder.glob(f"{QM_PREFIX}*.qm")) if folder.is_dir() else []
    return [DEFAULT] + [lang for lang in found if lang != DEFAULT]


def language_name(lang: str) -> str:
    """How a language is listed in the menu (in its own script)."""
    return NAMES.get(lang, lang)


def system_language(locale: QLocale | None = None) -> str:
    """zh_CN for any Chinese system locale, else English."""
    name = (locale or QLocale.system()).name()  # e.g. "zh_CN", "zh_TW", "en_US"
    return "zh_CN" if name.lower().startswith("zh") else DEFAULT


def _settings(settings: QSettings | None) -> QSettings:
    """`settings`, else the user's own store (the window's: explorer.ui.settings_store.user_settings), with a
    language an older version kept in its own store copied in once; a pickled value is never read (its
    file is moved aside)."""
    from explorer.ui.settings_guard import without_pickles

    if settings is not None:
        without_pickles(settings)
        return settings
    from explorer.ui import settings_store

    store = settings_store.user_settings()
    without_pickles(store)
    if not store.contains(SETTINGS_KEY):
        _take_old_language(store, settings_store.old_language_settings())
    return store


def _take_old_language(store: QSettings, old: QSettings) -> None:
    """Copy the language of the store older versions kept it in (alone) into `store`; the old file is
    left as it was (not written again, not deleted)."""
    from explorer.ui.settings_guard import without_pickles

    without_pickles(old)
    value = old.value(SETTINGS_KEY)
    if value:
        store.setValue(SETTINGS_KEY, str(value))
        store.sync()


def saved_language(settings: QSettings | None = None) -> str | None:
    """The remembered language if it is still available, else None."""
    value = _settings(settings).value(SETTINGS_KEY)
    return str(value) if value and str(value) in available_languages() else None


def save_language(lang: str, settings: QSettings | None = None) -> None:
    """Remember the user's choice for the next start."""
    store = _settings(settings)
    store.setValue(SETTINGS_KEY, lang)
    store.sync()


def clear_keeping_language(settings: QSettings) -> None:
    """Forget everything in `settings` but the saved language (Settings → Reset settings: the window
    stays in its language, and so does the next start)."""
    store = _settings(settings)
    lang = store.value(SETTINGS_KEY)
    store.clear()
    if lang:
        store.setValue(SETTINGS_KEY, str(lang))
    store.sync()


def choose_language(settings: QSettings | None = None, locale: QLocale | None = None) -> str:
    """The saved setting, else the system locale (zh* -> zh_CN), limited to what is available."""
    saved = saved_language(settings)
    if saved:
        return saved
    lang = system_language(locale)
    return lang if lang in available_languages() else DEFAULT


def current_language() -> str:
    """The language last installed with install_translator."""
    return _current


def install_translator(app: QCoreApplication, lang: str) -> bool:
    """Replace the installed translators with those for ``lang``; False if its .qm could not load.

    English needs no file and always succeeds. Qt's own strings (standard dialogs) come from the
    qtbase translations shipped with PySide6 when present. Widgets get QEvent.LanguageChange.
    """
    global _current
    for old in _installed:
        app.removeTranslator(old)
        old.deleteLater()
    _installed.clear()
    _current = DEFAULT
    if lang == DEFAULT:
        return True
    ours = QTranslator(app)
    if not ours.load(str(qm_path(lang))):
        return False
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if qtbase.load(f"qtbase_{lang}", qt_dir):
        app.installTranslator(qtbase)
        _installed.append(qtbase)
    app.installTranslator(ours)  # installed last: searched first
    _installed.append(ours)
    _current = lang
    return True


class Retranslatable:
    """Mixin (put before the Qt base class): calls ``self.retranslate_ui()`` on LanguageChange."""

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

    def retranslate_ui(self) -> None:
        """Set every visible string again with self.tr(...)."""
        raise NotImplementedError
