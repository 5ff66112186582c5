"""Present mode: a lecture on NDCG, one step per click or key, with a printable handout.

The page (``pages/present.py``) wires these modules, each one concern, none of them importing Streamlit:

* :mod:`ui.pages.present.link` — what is presented (:class:`~ui.pages.present.link.Lecture`) and its link: the page's
  fields for :class:`ui.state.PageState`, the lecture put together from them, and the links the
  playground's and the worked examples' "Present" buttons write;
* :mod:`ui.pages.present.slides` — the steps of a lecture and what each one shows
  (:class:`~ui.pages.present.slides.Slide`: cards, the current number, a sentence, the document's printed
  numbers), every number from :mod:`metrics`,
  and the sentence a screen reader announces for each step;
* :mod:`ui.pages.present.markup` — the themes (colours checked for contrast), the page's CSS and the HTML of a slide
  (fixed markup, every label escaped);
* :mod:`ui.pages.present.navigation` — moving between steps: the key listener's presses, the Back / Next buttons,
  the theme switch (functions of the session state).

The handout is :mod:`ui.pages.present.handout`, the charts :mod:`ui.charts.present`, the key listener
:mod:`ui.components.keys`.
"""
