"""Deprecated shim: the playground's state now lives in :mod:`ui.playground` (page logic over
:mod:`ui.state`), :mod:`ui.ranking` (the ranking model) and :mod:`ui.links` (the link format).

Kept only for :mod:`ui.present` (issue 15), which builds a lecture from a decoded playground link with
:func:`from_link`; remove this module once it uses :class:`ui.ranking.Ranking` directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ui.links import DEFAULT_RELS, LinkProblem, PlaygroundLink
from ui.ranking import Item, Ranking

__all__ = ["DEFAULT_RELS", "LinkModel", "from_link"]


@dataclass
class LinkModel:
    """A decoded playground link with its defaults filled in (the ranking and the settings)."""

    ranking: Ranking
    k: int | None = None
    gain: str = "linear"
    discount: str = "standard"
    base: float = 2.0
    idcg: str = "judged"
    problems: list[LinkProblem] = field(default_factory=list)

    def grades(self) -> list[float]:
        return self.ranking.grades()

    def unretrieved_grades(self) -> list[float]:
        return self.ranking.unretrieved_grades()

    def labels(self) -> list[str]:
        return self.ranking.labels()

    def all_items(self) -> list[Item]:
        return list(self.ranking.ranked + self.ranking.unretrieved)


def from_link(link: PlaygroundLink) -> LinkModel:
    """The ranking and settings a decoded link asks for (defaults for what it lacks).

    >>> m = from_link(PlaygroundLink(rels=[3, 2], unretrieved=[1], labels=["A"]))
    >>> [it.label for it in m.all_items()], m.idcg
    (['A', 'D2', 'D3'], 'judged')
    """
    rels = link.rels if link.rels is not None else list(DEFAULT_RELS)
    labels = link.labels if link.rels is not None else None
    ranking = Ranking.from_fields(rels, link.unretrieved or (), labels or ())
    return LinkModel(ranking, k=link.k, gain=link.gain or "linear", discount=link.discount or "standard",
                     base=link.base if link.base is not None else 2.0, idcg=link.idcg or "judged",
                     problems=list(link.problems))
