"""Tool ``get_template_clusters``."""

from ..schema import INT, list_output
from ._base import query_tool

TOOL = query_tool(
    "get_template_clusters",
    title="Template clusters (pages by DOM structure)",
    description="""The templates the site is built from: crawled HTML pages folded by DOM structure
    (text ignored), blocked by URL path and stylesheets. One item per template of at
    least minCount pages, biggest first: id (pass it to get_template_cluster, the
    template resource or review_template instead of the key), key, count, samplePages (3
    unless asked), reasons only when asked (blocking, landmarks with their chromeRate,
    siblingClusterKeys) and metaSignatureClusters (duplicate clusters its pages fall
    into, with the soft cap's capEventId): a crawler trap shows as one template with one
    meta signature, a section as one template with many. The first call reads every
    stored page (about 1 ms each), later ones are instant.""",
    output_schema=list_output({"type": "object", "required": [
        "id", "key", "count", "samplePages", "metaSignatureClusters"]},
        pagesClustered=INT, pagesWithoutHtml=INT),
    # an assistant's context is the limit: the reasons (most of an item) on request
    defaults={"reasons": False, "sample_pages_limit": 3},
)
