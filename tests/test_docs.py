"""Generated documentation (tokenjuice.docs)."""


from conftest import REPO


def test_the_state_doc_settings_table_is_generated():
    from tokenjuice.docs import SETTINGS_END, SETTINGS_START, settings_markdown

    text = (REPO / "docs" / "state.md").read_text()
    assert SETTINGS_START in text and SETTINGS_END in text
    assert text.split(SETTINGS_START)[1].split(SETTINGS_END)[0] == settings_markdown(), (
        "docs/state.md's settings table is stale: python -m tokenjuice.docs"
    )
