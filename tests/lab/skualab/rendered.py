# SPDX-License-Identifier: ISC
"""Scenario files generated from a scenario's own model (the `*_cases.py` scripts of the
policy scenarios): `rendered` maps a path relative to the scenario's directory to a function
returning the file's text.  Running a `*_cases.py` script writes them (write_all); each
scenario's tests check that the files on disk are still what the model renders (stale)."""

import os


def write_all(here, rendered):
    """Write every rendered file under `here`, saying which."""
    for rel, render in rendered.items():
        path = os.path.join(here, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(render())
        print("wrote", path)


def stale(here, rendered):
    """The files under `here` whose text is not what their render function gives (or that are
    missing), in `rendered`'s order."""
    out = []
    for rel, render in rendered.items():
        try:
            with open(os.path.join(here, rel)) as f:
                same = f.read() == render()
        except FileNotFoundError:
            same = False
        if not same:
            out.append(rel)
    return out
