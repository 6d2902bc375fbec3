"""page-cluster: give pages that share a template the same key, by DOM structure.

A Python take on ``@d-zero/page-cluster`` (docs/page-cluster.md): HTML in, keys out, no
archive code. The entry points:

- :func:`resolve_page_cluster_keys` — keys for an iterable of pages (read once,
  bounded memory); :func:`resolve` — the same with cluster reasons and token sets;
- :func:`tokenize` — a page's structural tokens;
- :func:`validate_cluster_partition`, :func:`find_cross_cluster_duplicates`,
  :func:`compute_cluster_cohesion`, :func:`merge_validated_clusters` — checks of a result;
- :func:`extract_landmarks`, :func:`is_chrome_landmark_instance`,
  :func:`resolve_landmark_variant_keys` — landmarks one page at a time;
- :func:`detect_mirror_axis`, :func:`normalize_path_by_mirror_axis`,
  :func:`normalize_href_by_mirror_axis` — mirrored site parts (``/en/``, ``/ja/``);
- :func:`jaccard_similarity`, :func:`auto_cut_threshold` — the primitives.
"""

from __future__ import annotations

from .landmarks import (
    LandmarkInstance,
    extract_landmarks,
    is_chrome_landmark_instance,
    resolve_landmark_variant_keys,
)
from .mirror import (
    MirrorAxis,
    detect_mirror_axis,
    normalize_href_by_mirror_axis,
    normalize_path_by_mirror_axis,
)
from .resolve import Result, resolve, resolve_page_cluster_keys
from .similarity import auto_cut_threshold, jaccard_similarity
from .tokens import parse, tokenize
from .validate import (
    compute_cluster_cohesion,
    find_cross_cluster_duplicates,
    merge_validated_clusters,
    safe_merges,
    validate_cluster_partition,
)

__version__ = "0.1.0"

__all__ = [
    "LandmarkInstance", "MirrorAxis", "Result", "__version__", "auto_cut_threshold",
    "compute_cluster_cohesion", "detect_mirror_axis", "extract_landmarks",
    "find_cross_cluster_duplicates", "is_chrome_landmark_instance", "jaccard_similarity",
    "merge_validated_clusters", "normalize_href_by_mirror_axis",
    "normalize_path_by_mirror_axis", "parse", "resolve", "resolve_landmark_variant_keys",
    "resolve_page_cluster_keys", "safe_merges", "tokenize", "validate_cluster_partition",
]
