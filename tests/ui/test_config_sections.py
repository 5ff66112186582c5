"""ui.config_sections: Streamlit's options by section through an index — the same answer as Streamlit's own
walk over every option (kept as ``__wrapped__``), for every section, after an option is set and after the
options table is built anew."""
from __future__ import annotations

from streamlit import config

from ui.config_sections import index_config_sections


def _walk(section: str) -> list:
    # Streamlit's own definition, written out: every option of the table whose section is ``section``.
    return [(o.name, o.value) for o in config.get_config_options().values() if o.section == section]


def test_every_section_reads_as_streamlit_reads_it():
    assert index_config_sections()
    sections = {o.section for o in config.get_config_options().values()}
    assert {"theme", "theme.sidebar", "theme.light", "theme.dark", "server"} <= sections
    for section in sorted(sections) + ["no.such.section"]:
        assert list(config.get_options_for_section(section).items()) == _walk(section)
        assert config.get_options_for_section(section) == config.get_options_for_section.__wrapped__(section)


def test_a_value_set_later_and_a_table_built_anew_are_seen():
    assert index_config_sections()
    kept = config.get_config_options()  # put back as it was (other tests of this process read it)
    before = config.get_option("theme.primaryColor")
    try:
        config.set_option("theme.primaryColor", "#123456")
        assert config.get_options_for_section("theme")["primaryColor"] == "#123456"
        table = config.get_config_options(force_reparse=True)  # a new table: indexed again
        assert table is not kept and config.get_config_options() is table
        assert list(config.get_options_for_section("theme").items()) == _walk("theme")
    finally:
        config._config_options = kept
        config.set_option("theme.primaryColor", before)
    assert list(config.get_options_for_section("theme").items()) == _walk("theme")
