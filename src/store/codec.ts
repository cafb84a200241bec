/** The one MessagePack codec for stored documents (plain maps, so any reader can decode them). */
import { Packr } from 'msgpackr';

export const docCodec = new Packr({ useRecords: false, moreTypes: false });
