"""A view's own controls name the value the picture uses, for every value the State allows (the CLI/window
review of stop 53: a scene's Precision span 1000 read "max_len", Distance's RoPE base 5e8 read 10000000, and
base 1.5 read "2", which a nudge of the box then wrote back)."""

from __future__ import annotations

import pytest


def _show(window, name):
    window.tabs.setCurrentIndex(list(window.views).index(name))
    window.controller.wait_idle()
    return window.views[name]


@pytest.mark.parametrize("view,field,box,value,text", [
    ("precision", "span", "span_box", 1000, "1,000"),
    ("distance", "rope_base", "base_box", 5e8, "500000000"),
    ("distance", "rope_base", "base_box", 1.5, "1.5"),
    ("rope", "base", "base_box", 12345.678, "12345.678"),
    ("rope", "base", "base_box", 1.0001, "1.0001"),
])
def test_a_value_the_state_allows_is_shown_as_it_is(window, view, field, box, value, text):
    v = _show(window, view)
    window.controller.update_view(view, **{field: value})
    window.controller.wait_idle()
    control = getattr(v, box)
    shown = control.currentText() if hasattr(control, "currentText") else control.text()
    assert shown.replace(",", "") == text.replace(",", "")
    data = control.currentData() if hasattr(control, "currentData") else control.value()
    assert data == pytest.approx(value)
    assert getattr(window.controller.state.views[view], field) == value        # nothing written back
    if hasattr(control, "stepUp"):            # a nudge starts from the true value
        control.stepUp()
        assert getattr(window.controller.state.views[view], field) > value


def test_the_listed_choices_stay_and_a_listed_value_adds_none(window):
    v = _show(window, "precision")
    count = v.span_box.count()
    window.controller.update_view("precision", span=4096)
    window.controller.wait_idle()
    assert v.span_box.count() == count and v.span_box.currentData() == 4096
