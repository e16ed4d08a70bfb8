/**
 * Class/id words that mark boilerplate: consent banners, ads, share widgets,
 * site menus, popups, breadcrumbs, paywall and login boxes, DocBook's Prev / Up / Next bars (`navheader`,
 * `navfooter`), a site's announcements above every page
 * (a forum's `notices`, MediaWiki's `siteNotice` and `centralNotice`, its sections' "[edit]"
 * links, `mw-editsection`; a forum post's tool bar and report links, `postTools`, `post-actions`,
 * `comment-actions`, `report-abuse`; a story's text-size control, `textresizer`; not a
 * single `notice`, which documentation uses for its callouts). Matched as whole words inside class and id
 * tokens so that "header-ad" matches but "shadow" or "download" do not.
 */
export const JUNK_WORDS =
  /(?:^|[\s_-])(?:cookies?|cookiebanner|consent|gdpr|cc-banner|ads?|adsbygoogle|advert\w*|adslot|adunit|ad\d+|dfp|gpt|sponsored|sponsor|promoted|share|sharing|sharebar|shares|social|socials|social-?links|socialmedia|newsletter|subscribe|signup|login|log-in|signin|sign-in|popup|pop-up|modal|dialog|lightbox|flyout|tooltip|toast|breadcrumbs?|skip|skiplink|skip-link|jump-?link|navbar|navheader|navfooter|topbar|menu|megamenu|mega-menu|nav|navigation|site-?nav|offcanvas|off-canvas|drawer|masthead|site-?header|site-?footer|global-?header|global-?footer|back-to-top|control-?bar|(?:player|video|audio|media|slider|carousel|gallery|slideshow)-?controls|paywall|toc|table-of-contents|pagination|pager|notices|site-?notice|sitenotice|central-?notice|centralnotice|editsection|post-?tools|post-?actions|comment-?actions|report-?abuse|inappropriate|text-?resizer|font-?resizer)(?:$|[\s_-])/;
