"""Tool ``find_near_duplicates``."""

from ..schema import INT, STR, item, list_output
from ._base import query_tool

TOOL = query_tool(
    "find_near_duplicates",
    title="Near-duplicate content",
    description="""Which pages say almost the same thing? Groups of pages whose content
    area (the main region, or selector's element) is at least threshold % alike (default
    90; Jaccard of three-word shingles by MinHash), indexable pages by default, biggest
    first: pages, similarity, representativeUrl, title and members (the first ten, each
    with its similarity). Exact copies are find_duplicate_bodies. The first call on an
    archive reads every page's HTML (minutes at 300,000 pages; progress is sent when
    asked); later thresholds and get_near_duplicates answer from memory.""",
    output_schema=list_output(item(["pages", "similarity", "representativeUrl", "members"]),
                              threshold=INT, population=STR, comparedPages=INT),
)
