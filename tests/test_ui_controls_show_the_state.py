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


def test_shown_values_do_not_pile_up_and_decimals_go_back(window):
    """An item per shown value had stayed (spans 1000, 1500, 2000: three more items); decimals taken for 1.0001
    stayed for 10000 ("10000.0000"). From the review of stop 53's changes."""
    v = _show(window, "precision")
    listed = v.span_box.count()
    for span in (1000, 1500, 2000):
        window.controller.update_view("precision", span=span)
        window.controller.wait_idle()
        assert v.span_box.count() == listed + 1 and v.span_box.currentData() == span
    window.controller.update_view("precision", span=4096)
    window.controller.wait_idle()
    assert v.span_box.count() == listed and v.span_box.currentData() == 4096
    d = _show(window, "distance")
    for base, text in ((1.0001, "1.0001"), (10000.0, "10000")):
        window.controller.update_view("distance", rope_base=base)
        window.controller.wait_idle()
        assert d.base_box.text().replace(",", "") == text


def test_a_scene_s_values_are_fitted_to_its_table_as_the_sliders_fit_them(window, tmp_path):
    """Offset p = 500 in a 64-row table was drawn at 63 while its box read 500 (State.from_dict did not fit the
    views to the params, as with_params does)."""
    from explorer.scenes import load_scene
    from explorer.ui.file_actions import apply_scene

    path = tmp_path / "s.json"
    path.write_text('{"version": 2, "view": "offset", "params": {"max_len": 64}, '
                    '"views": {"offset": {"position": 500, "offset": 300}}}')
    apply_scene(window, load_scene(path))
    window.controller.wait_idle()
    state = window.controller.state.views["offset"]
    v = window.views["offset"]
    assert (v.p_box.value(), v.k_box.value()) == (state.position, state.offset)
    assert state.position <= 63 and state == state.fit(window.controller.params)
