import type { PublicPhoto } from "@/lib/domain/media/list-public-photos";
import { photoTagLabels } from "@/lib/domain/vocabulary/photo-rooms";
import type { Locale } from "@/lib/base/i18n";
import { format } from "@/lib/base/i18n/format";
import "./listing-photos.css";

/**
 * A listing's photos in order, the first (the cover) loaded at once and the others as they come into
 * view. Each is a `<picture>`: WebP in two widths for the browser to choose from, the JPEG for those
 * without WebP, its width and height set so the page does not jump, and the ThumbHash placeholder
 * under it until it has loaded (an image, not a style: the page's CSP allows no inline styles).
 * Under a photo, its level and rooms: a known code by its label in the page's language, a free room
 * label as its owner wrote it.
 */
export function ListingPhotos({
  photos,
  locale,
  texts,
}: {
  photos: PublicPhoto[];
  locale: Locale;
  texts: { heading: string; alt: string };
}) {
  if (photos.length === 0) return null;
  return (
    <section aria-label={texts.heading}>
      <ul className="photos">
        {photos.map((photo, index) => {
          const tags = photoTagLabels(photo, locale);
          return (
            <li key={photo.webp1600.url}>
              <figure className="photo">
                {photo.placeholder && (
                  // eslint-disable-next-line @next/next/no-img-element -- a data URL of a few hundred bytes: nothing to optimise
                  <img className="photo-placeholder" src={photo.placeholder} alt="" aria-hidden="true" />
                )}
                <picture>
                  <source
                    type="image/webp"
                    srcSet={`${photo.webp400.url} ${photo.webp400.width}w, ${photo.webp1600.url} ${photo.webp1600.width}w`}
                    sizes="(max-width: 52rem) 100vw, 50rem"
                  />
                  <img
                    src={photo.jpeg1600.url}
                    width={photo.jpeg1600.width}
                    height={photo.jpeg1600.height}
                    alt={format(locale, texts.alt, { n: index + 1, total: photos.length })}
                    loading={index === 0 ? "eager" : "lazy"}
                    decoding="async"
                  />
                </picture>
              </figure>
              {tags.length > 0 && (
                <p className="muted photo-tags-caption" lang={locale}>
                  {tags.join(" · ")}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
