"""Repository files the docs link to, served beside the pages so the links work on the site.

A page shows a file of the repository (an example mind, the changelog) with a snippet
include, which a reader of the raw Markdown sees only as ``--8<-- "PATH"``; the page
therefore also links to the file (``../PATH``), which works wherever the repository is
read. This hook copies each such linked file, as it is, into the built site under
``repository/``, so the same link works on the site and ``mkdocs build --strict`` can still
report a link to a file that does not exist.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

# A Markdown link's target that leaves the docs folder: ](../PATH) or ](../PATH#anchor).
_OUTSIDE_LINK = re.compile(r"\]\((\.\./[^)\s#]+)")
SITE_FOLDER = "repository"


class RepositoryFile(File):
    """A file from outside the docs folder, copied as it is (Markdown too, never rendered)."""

    def is_documentation_page(self) -> bool:
        """Never a page: the site keeps the file as the repository holds it."""
        return False


def linked_files(page: File) -> set[str]:
    """The targets (relative to the docs folder) of the page's links out of the docs folder."""
    if page.abs_src_path is None:  # made by a plugin: no source of its own
        return set()
    text = Path(page.abs_src_path).read_text(encoding="utf-8")
    folder = posixpath.dirname(page.src_uri)
    links = _OUTSIDE_LINK.findall(text)
    return {posixpath.normpath(posixpath.join(folder, link)) for link in links}


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add every existing repository file a page links to; a missing one stays a broken link."""
    docs = Path(config.docs_dir).resolve()
    root = Path(config.config_file_path).resolve().parent
    targets: set[str] = set()
    for page in files.documentation_pages():
        targets |= linked_files(page)
    for src_uri in sorted(targets):
        path = (docs / src_uri).resolve()
        if not src_uri.startswith("../") or not path.is_file() or root not in path.parents:
            continue
        dest_uri = posixpath.join(SITE_FOLDER, path.relative_to(root).as_posix())
        # Included by hand: mkdocs's own rules exclude a path for its leading "..".
        file = RepositoryFile(
            src_uri, config.docs_dir, config.site_dir, config.use_directory_urls,
            dest_uri=dest_uri, inclusion=InclusionLevel.INCLUDED,
        )  # fmt: skip
        files.append(file)
    return files
