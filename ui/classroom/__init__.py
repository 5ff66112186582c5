"""The classroom pages' drawing code: :mod:`ui.classroom.views` (teacher and student).

Storage and session logic live in the top-level :mod:`classroom` package (no Streamlit); charts in
:mod:`ui.charts.classroom`.
"""
