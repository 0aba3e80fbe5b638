"""Reading the SVG drawings of a search in tests."""

from xml.etree import ElementTree

SVG = "{http://www.w3.org/2000/svg}"
"""The SVG namespace, as ElementTree spells a tag in it."""


def svg_groups(document: str) -> list[set[str]]:
    """The class sets of the node groups of an SVG document (which must parse as XML)."""
    root = ElementTree.fromstring(document)
    return [
        set(group.get("class", "").split())
        for group in root.iter(f"{SVG}g")
        if "node" in group.get("class", "").split()
    ]
