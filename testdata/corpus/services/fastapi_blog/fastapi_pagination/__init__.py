from .api import (
    create_page,
    pagination_params,
    resolve_params,
    use_as_page,
    using_page,
    using_params,
    using_response,
)
from .page import Page
from .paginator import paginate
from .params import PaginationParams
