"""The classroom pages' drawing code: :mod:`ui.pages.classroom.views` (teacher and student) and
:mod:`ui.pages.classroom.browser` (the client the per-client limits count, and the cookies that keep a
teacher's or student's token so no secret stays in the address bar).

Storage and session logic live in the top-level :mod:`classroom` package (no Streamlit); charts in
:mod:`ui.charts.classroom`.
"""
