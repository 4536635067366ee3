import type { PublicPhoto } from "@/lib/domain/media/list-public-photos";
import "./listing-card.css";

/** A listing's cover photo (400 px, over its placeholder), or a box saying there is none; decorative, the title says what it is. */
export function ListingCover({ cover, noPhoto }: { cover: PublicPhoto | undefined; noPhoto: string }) {
  return (
    <div className="listing-card-photo">
      {cover ? (
        <>
          {cover.placeholder && (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL of a few hundred bytes: nothing to optimise
            <img className="photo-placeholder" src={cover.placeholder} alt="" aria-hidden="true" />
          )}
          <picture>
            <source type="image/webp" srcSet={`${cover.webp400.url} ${cover.webp400.width}w`} />
            <img
              src={cover.jpeg1600.url}
              width={cover.webp400.width}
              height={cover.webp400.height}
              alt=""
              loading="lazy"
              decoding="async"
            />
          </picture>
        </>
      ) : (
        <p className="no-photo">{noPhoto}</p>
      )}
    </div>
  );
}
