"""The examples' command line: ``--small`` (the sizes CI's smoke test runs) and ``--device``."""
from __future__ import annotations

import argparse
from typing import Callable


def run(main: Callable[[bool, str | None], object], doc: str) -> None:
    """Parse the arguments and call ``main(small, device)``; ``doc``'s first line describes the script."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="small sizes (CI smoke test)")
    parser.add_argument("--device", default=None, help="cpu, cl, cl:N (default: darray's default place)")
    args = parser.parse_args()
    main(args.small, args.device)
