"""The examples' command line: ``--small`` (the sizes CI's smoke test runs), ``--device`` and
a script's own switches."""
from __future__ import annotations

import argparse
from collections.abc import Callable


def run(main: Callable[..., object], doc: str, switches: dict[str, str] | None = None) -> None:
    """Parse the arguments and call ``main(small, device, **switches)``; ``doc``'s first line
    describes the script; ``switches``: ``{"--no-cluster": help}`` flags, passed as ``no_cluster``."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="small sizes (CI smoke test)")
    parser.add_argument("--device", default=None, help="cpu, cl, cl:N (default: darray's default place)")
    for flag, text in (switches or {}).items():
        parser.add_argument(flag, action="store_true", help=text)
    args = vars(parser.parse_args())
    main(args.pop("small"), args.pop("device"), **args)
